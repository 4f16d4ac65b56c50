"""Reads for adaptive design (``ranking.services.adaptive`` adds the batches): the open
places that decide when a batch is due, the earlier refits the stop rule compares, the
outputs a batch's tasks are made of, and each criterion's batches as the page and the
API show them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, Max, Sum
from django.db.models.functions import Greatest

from annotations.models import Campaign, Criterion, Output, Task
from annotations.selectors.criteria import criteria_in_order
from ranking.models import AdaptiveBatch


def adaptive_campaigns_live() -> list[Campaign]:
    """The live campaigns with adaptive design on (the periodic step's)."""
    return list(Campaign.objects.filter(adaptive_design=True, status=Campaign.Status.LIVE))


def adaptive_criteria(*, campaign: Campaign) -> list[Criterion]:
    """The campaign's criteria in its order, each one's batches apart."""
    return criteria_in_order(campaign=campaign)


def adaptive_systems(*, campaign: Campaign) -> list[tuple[int, str]]:
    """(id, label) of the campaign's systems by label: a batch's systems are indexed so."""
    return list(campaign.systems.order_by("label").values_list("id", "label"))


def adaptive_open_places(*, criterion: Criterion) -> int:
    """Places still open on the criterion's regular tasks (a hint: places held are
    counted exactly only under a task's lock)."""
    jpt = criterion.campaign.judgements_per_task
    total = (
        Task.objects.filter(criterion=criterion, kind=Task.Kind.REGULAR)
        .annotate(left=Greatest(jpt - F("places_held"), 0))
        .aggregate(n=Sum("left"))["n"]
    )
    return int(total or 0)


def adaptive_batch_last_number(*, criterion: Criterion) -> int:
    """The number of the criterion's latest batch (0 before the first)."""
    last = AdaptiveBatch.objects.filter(criterion=criterion).aggregate(n=Max("number"))["n"]
    return int(last or 0)


def adaptive_refits_before(
    *, criterion: Criterion, number: int, limit: int | None = None
) -> list[tuple[list[dict[str, Any]], int]]:
    """The state and the judgements read of the criterion's batches before batch
    ``number`` (the ``limit`` latest; all by default), the latest first (what the stop
    rule compares a refit with)."""
    rows = (
        AdaptiveBatch.objects.filter(criterion=criterion, number__lt=number)
        .order_by("-number")
        .values_list("state", "judgements")
    )
    return list(rows if limit is None else rows[:limit])


#: (item id, language) -> system id -> (output id, group): the outputs a task can show,
#: ``group`` the slot outputs merged as identical share
OutputRows = dict[tuple[int, str], dict[int, tuple[int, int]]]


def adaptive_output_rows(*, campaign: Campaign) -> OutputRows:
    """The campaign's outputs by (item, language) row and system; identical outputs share a
    group when the campaign merges them."""
    outputs: OutputRows = {}
    for pk, item_id, system_id, canonical_id, language in Output.objects.filter(
        item__campaign=campaign
    ).values_list("id", "item_id", "system_id", "canonical_id", "language"):
        group = canonical_id if campaign.merge_identical_outputs and canonical_id else pk
        outputs.setdefault((item_id, language), {})[system_id] = (pk, group)
    return outputs


def adaptive_task_rows(*, criterion: Criterion) -> list[tuple[int, str]]:
    """The (item, language) row of each of the criterion's regular tasks."""
    return list(
        Task.objects.filter(criterion=criterion, kind=Task.Kind.REGULAR).values_list(
            "item_id", "language"
        )
    )


@dataclass(frozen=True)
class AdaptiveStatus:
    criterion: str
    open_places: int
    batches: list[AdaptiveBatch]

    @property
    def latest(self) -> AdaptiveBatch | None:
        return self.batches[0] if self.batches else None

    @property
    def stable(self) -> bool:
        return bool(self.batches) and self.batches[0].stable


def adaptive_status(*, campaign: Campaign, limit: int = 50) -> list[AdaptiveStatus]:
    """Per criterion: open places and the latest batches (newest first)."""
    return [
        AdaptiveStatus(
            criterion=criterion.name,
            open_places=adaptive_open_places(criterion=criterion),
            batches=list(
                AdaptiveBatch.objects.filter(criterion=criterion).order_by("-number")[:limit]
            ),
        )
        for criterion in adaptive_criteria(campaign=campaign)
    ]


def adaptive_status_rows(*, campaign: Campaign) -> list[dict[str, Any]]:
    """The page's sections: each criterion's status and its batches' rows."""
    return [
        {"status": status, "rows": [adaptive_batch_row(b) for b in status.batches]}
        for status in adaptive_status(campaign=campaign)
    ]


def adaptive_clusters_text(batch: AdaptiveBatch) -> str:
    """The refit's clusters as ``a b | c | d e`` (best first); "" before any judgement."""
    rows = [r for r in batch.state if r.get("cluster") is not None]
    if not rows:
        return ""
    rows.sort(key=lambda r: (r["cluster"], -(r["value"] or 0.0), r["label"]))
    groups: dict[int, list[str]] = {}
    for row in rows:
        groups.setdefault(row["cluster"], []).append(row["label"])
    return " | ".join(" ".join(labels) for _, labels in sorted(groups.items()))


def adaptive_batch_row(batch: AdaptiveBatch) -> dict[str, Any]:
    """A batch as the page's table shows it: its clusters, contested gaps and boundary
    systems, and the tasks no item could take."""
    return {
        "batch": batch,
        "clusters": adaptive_clusters_text(batch),
        "gaps": batch.decision.get("contested_gaps", []),
        "boundary": batch.decision.get("boundary_systems", []),
        "unplaced": batch.decision.get("unplaced", 0),
    }
