"""Reads for the monitor page: live progress and throughput, the comparison matrix,
every judgement of a campaign read once, and the worker table (which the payments page
and the workers API read too)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations

import numpy as np
from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone

from annotations.models import (
    Campaign,
    Criterion,
    Judgement,
    JudgementScore,
    Task,
    Worker,
)
from annotations.selectors.judgements import (
    judgement_counts,
    judgement_is_repeat,
    judgements_counted,
    score_counts,
    scores_counted,
)
from annotations.selectors.quality import (
    QualityVerdict,
    WorkerChecks,
    quality_verdict,
    worker_checks,
)
from annotations.selectors.sessions import is_together, page_key

# Progress -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CriterionProgress:
    criterion: Criterion
    planned: int
    collected: int
    per_hour: float
    finish_at: datetime | None
    # Of ``planned`` and ``collected``: judgements imported from a finished evaluation.
    imported: int = 0
    # The hours ``per_hour`` was measured over (the window, or less when the criterion's
    # first judgement came later).
    rate_hours: float = 3.0

    @property
    def rate_window(self) -> str:
        """``rate_hours`` in words: "3 hours", "1 hour", "40 minutes"."""
        if self.rate_hours >= 1:
            hours = round(self.rate_hours, 1)
            return f"{hours:g} hour{'' if hours == 1 else 's'}"
        return f"{max(1, round(self.rate_hours * 60))} minutes"

    @property
    def percent(self) -> float:
        return 100.0 * min(self.collected / self.planned, 1.0) if self.planned else 0.0

    @property
    def remaining(self) -> int:
        return max(self.planned - self.collected, 0)


def campaign_progress(
    *, campaign: Campaign, now: datetime | None = None, window_hours: float = 3.0
) -> list[CriterionProgress]:
    """Judgements collected against planned, per criterion, with an estimated finish.

    The rate is the number of judgements submitted in the last ``window_hours``, or since
    the criterion's first judgement when that came later (at least 5 minutes); with none
    in that window, or a campaign that is not live, there is no estimate.
    """
    now = now or timezone.now()
    since = now - timedelta(hours=window_hours)
    jpt = campaign.judgements_per_task
    criteria = campaign.criteria.annotate(
        n_regular=Count("tasks", filter=Q(tasks__kind=Task.Kind.REGULAR), distinct=True),
    )
    counted = dict(
        judgements_counted(campaign=campaign)
        .values("criterion_id")
        .annotate(n=Count("id"))
        .values_list("criterion_id", "n")
    )
    imported = dict(
        Judgement.objects.filter(criterion__campaign=campaign, task__kind=Task.Kind.IMPORTED)
        .values("criterion_id")
        .annotate(n=Count("id"))
        .values_list("criterion_id", "n")
    )
    recent = {
        criterion_id: (n, first)
        for criterion_id, n, first in judgements_counted(campaign=campaign)
        .filter(submitted_at__gte=since)
        .values("criterion_id")
        .annotate(n=Count("id"), first=Min("submitted_at"))
        .values_list("criterion_id", "n", "first")
    }
    live = campaign.status == Campaign.Status.LIVE
    rows = []
    for criterion in criteria:
        planned = criterion.n_regular * jpt + imported.get(criterion.pk, 0)
        collected = counted.get(criterion.pk, 0)
        n_recent, first = recent.get(criterion.pk, (0, None))
        hours = window_hours
        if first is not None and first > since:
            # Collection began inside the window: a rate over the whole window would be
            # too low (the campaign was live for minutes, not hours).
            hours = max((now - first).total_seconds() / 3600, 5 / 60)
        per_hour = n_recent / hours
        remaining = max(planned - collected, 0)
        finish_at = None
        if remaining == 0 and planned:
            finish_at = now
        elif per_hour > 0 and live:
            finish_at = now + timedelta(hours=remaining / per_hour)
        rows.append(
            CriterionProgress(
                criterion,
                planned,
                collected,
                per_hour,
                finish_at,
                imported.get(criterion.pk, 0),
                rate_hours=hours,
            )
        )
    return rows


@dataclass(frozen=True)
class ProgressTotals:
    """Judgements planned and done over all criteria: the one count the overview and
    the monitor both show. ``imported`` judgements (a finished evaluation) are part of
    both; ``to_collect`` is what the built tasks ask of workers here."""

    planned: int
    done: int
    imported: int

    @property
    def to_collect(self) -> int:
        return self.planned - self.imported

    @property
    def collected(self) -> int:
        return self.done - self.imported

    @property
    def percent(self) -> float:
        return 100.0 * min(self.done / self.planned, 1.0) if self.planned else 0.0


def progress_totals(*, progress: list[CriterionProgress]) -> ProgressTotals:
    """The totals of :func:`campaign_progress`' rows (pass them when you have them)."""
    return ProgressTotals(
        planned=sum(p.planned for p in progress),
        done=sum(p.collected for p in progress),
        imported=sum(p.imported for p in progress),
    )


def campaign_totals(*, campaign: Campaign) -> ProgressTotals:
    """Judgements planned and done in the campaign, as the monitor counts them."""
    return progress_totals(progress=campaign_progress(campaign=campaign))


def campaign_throughput(
    *, campaign: Campaign, hours: int = 24, now: datetime | None = None
) -> list[tuple[datetime, int]]:
    """Judgements submitted per hour over the last ``hours`` hours (oldest first)."""
    now = now or timezone.now()
    end = now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    start = end - timedelta(hours=hours)
    counts = [0] * hours
    for submitted in Judgement.objects.filter(
        criterion__campaign=campaign, submitted_at__gte=start
    ).values_list("submitted_at", flat=True):
        counts[min(int((submitted - start).total_seconds() // 3600), hours - 1)] += 1
    return [(start + timedelta(hours=i), n) for i, n in enumerate(counts)]


# Comparison matrix --------------------------------------------------------------------------


@dataclass(frozen=True)
class ComparisonMatrix:
    criterion: Criterion
    labels: list[str]
    counts: list[list[int]]

    @property
    def rows(self) -> list[tuple[str, list[int]]]:
        return list(zip(self.labels, self.counts, strict=True))


def comparison_matrix(*, criterion: Criterion) -> ComparisonMatrix:
    """How often each pair of systems was compared: two outputs shown in different slots
    of the same counted judgement."""
    systems = list(criterion.campaign.systems.order_by("label").values_list("id", "label"))
    index = {sid: i for i, (sid, _) in enumerate(systems)}
    counts = np.zeros((len(systems), len(systems)), dtype=np.int64)
    by_judgement: dict[int, list[tuple[int, int]]] = defaultdict(list)
    rows = scores_counted(criterion=criterion).values_list(
        "judgement_id", "output__system_id", "slot"
    )
    for judgement_id, system_id, slot in rows.iterator(chunk_size=5000):
        by_judgement[judgement_id].append((index[system_id], slot))
    for members in by_judgement.values():
        for (a, slot_a), (b, slot_b) in combinations(members, 2):
            if slot_a != slot_b and a != b:
                counts[a, b] += 1
                counts[b, a] += 1
    return ComparisonMatrix(criterion, [label for _, label in systems], counts.tolist())


def comparison_counts(*, campaign: Campaign) -> dict[str, dict[str, dict[str, int]]]:
    """Per criterion (by name), how often each pair of systems was compared
    (:func:`comparison_matrix`), the pairs never compared left out: the progress API's."""
    counts = {}
    for criterion in campaign.criteria.all():
        matrix = comparison_matrix(criterion=criterion)
        counts[criterion.name] = {
            a: {b: n for b, n in zip(matrix.labels, row, strict=True) if n}
            for a, row in matrix.rows
        }
    return counts


# Workers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WorkerRow:
    worker: Worker
    #: counted judgements (real tasks, first answer): what rankings read
    tasks_done: int
    median_seconds: float | None
    attention_checks: int
    attention_pass_rate: float | None
    self_consistency: float | None
    uniform_rate: float | None
    agreement: float | None
    #: ``selectors.quality.quality_verdict``: the rule that flags and that payments uses
    quality: QualityVerdict
    #: Pages submitted (glossary: the unit of ``tasks_per_worker`` and of the plan), and
    #: of them the pages of counted tasks, of attention checks and of repeats.
    pages: int = 0
    counted_pages: int = 0
    attention_pages: int = 0
    repeat_pages: int = 0


def _pairs_signs(scores: dict[int, float], labels: dict[int, str]) -> dict[tuple[int, int], int]:
    """+1 / 0 / -1 for each pair of outputs (as ``agreement.preference``, without numpy's
    per-call cost: the monitor calls this for every judgement of a campaign).

    Each pair is oriented canonically, by its outputs' system labels (``labels``; the
    output id only between two outputs of one system): the share of +1 and -1 (kappa's
    P(E), alpha's ordinal distances) then depends on the judgements alone, not on the
    order in which an import created the outputs."""
    outputs = sorted(scores, key=lambda output: (labels.get(output, ""), output))
    return {
        (a, b): (scores[a] > scores[b]) - (scores[a] < scores[b])
        for a, b in combinations(outputs, 2)
    }


def campaign_judgements(*, campaign: Campaign) -> dict[int, dict]:
    """Every judgement of the campaign with its scores, read in one query.

    Keyed by judgement id; each value holds ``worker``, ``task``, ``item``, ``criterion``,
    ``seconds``, the ``regular`` scores by output id and, for judgements that count
    (``selectors.judgements``: no attention check, no repeat), ``signs``: the preference
    of every pair of outputs; ``prefs`` is the same for those and for repeats. The monitor
    page reads it once and hands it to :func:`worker_table` and to
    ``selectors.agreement.campaign_agreement``.
    """
    rows = JudgementScore.objects.filter(judgement__criterion__campaign=campaign).values_list(
        "judgement_id",
        "judgement__worker_id",
        "judgement__task_id",
        "judgement__task__item_id",
        "judgement__criterion_id",
        "judgement__task__kind",
        "judgement__assignment__kind",
        "judgement__task__group",
        "judgement__seconds_on_task",
        "output_id",
        "output__system__label",
        "role",
        "score",
    )
    judgements: dict[int, dict] = {}
    counted: list[dict] = []
    repeats: list[dict] = []
    labels: dict[int, str] = {}
    together = is_together(campaign)
    for (
        jid,
        wid,
        tid,
        iid,
        cid,
        tkind,
        akind,
        group,
        seconds,
        oid,
        label,
        role,
        score,
    ) in rows.iterator(chunk_size=5000):
        j = judgements.get(jid)
        if j is None:
            if judgement_counts(task_kind=tkind, assignment_kind=akind):
                kind = "counted"
            elif judgement_is_repeat(task_kind=tkind, assignment_kind=akind):
                kind = "repeat"
            else:
                kind = "attention" if tkind == Task.Kind.ATTENTION else "other"
            j = judgements[jid] = {
                "worker": wid,
                "task": tid,
                "item": iid,
                "criterion": cid,
                "seconds": seconds,
                "regular": {},
                "kind": kind,
                # The page it was shown on (``selectors.sessions.page_key``).
                "page": page_key(
                    together=together,
                    group=group,
                    task_kind=tkind,
                    assignment_kind=akind,
                    own=("judgement", jid),
                ),
            }
            if kind == "counted":
                counted.append(j)
            elif kind == "repeat":
                repeats.append(j)
        if score_counts(role=role):
            j["regular"][oid] = score
            labels[oid] = label
    for j in counted:
        # Compared with every other judgement of its task: work them out once.
        j["signs"] = j["prefs"] = _pairs_signs(j["regular"], labels)
    for j in repeats:
        j["prefs"] = _pairs_signs(j["regular"], labels)
    return judgements


def worker_table(
    *,
    campaign: Campaign,
    workers: QuerySet[Worker] | None = None,
    judgements: dict[int, dict] | None = None,
    checks: dict[int, WorkerChecks] | None = None,
) -> list[WorkerRow]:
    """Per worker: tasks done (counted judgements), median time, the quality checks'
    verdicts as stored (attention checks and their pass rate; ``quality``, the one rule's
    verdict against the campaign's threshold; self-consistency, the mean
    share of output pairs ordered alike in a repeat: ``selectors.quality``),
    uniform-score rate (share of judgements giving every output the same score) and
    agreement with the others (share of output pairs on which another worker's
    judgement of the same task agrees).

    ``judgements`` is :func:`campaign_judgements`' result and ``checks``
    ``worker_checks``' when the caller has them already.
    """
    workers = workers if workers is not None else campaign.workers.all()
    workers = workers.order_by("-created_at", "id")
    if judgements is None:
        judgements = campaign_judgements(campaign=campaign)
    if checks is None:
        checks = worker_checks(campaign=campaign)

    by_worker: dict[int, list[dict]] = defaultdict(list)
    by_task: dict[int, list[dict]] = defaultdict(list)
    for j in judgements.values():
        by_worker[j["worker"]].append(j)
        if "signs" in j:
            by_task[j["task"]].append(j)

    result = []
    for worker in workers:
        own = by_worker.get(worker.pk, [])
        real = [j for j in own if "signs" in j]
        stored = checks.get(worker.pk) or WorkerChecks()
        agree = total = 0
        for j in real:
            mine = j["signs"]
            for other in by_task.get(j["task"], []):
                if other["worker"] == worker.pk:
                    continue
                theirs = other["signs"]
                for pair in mine.keys() & theirs.keys():
                    agree += mine[pair] == theirs[pair]
                    total += 1
        uniform = [len(set(j["regular"].values())) == 1 for j in real if len(j["regular"]) > 1]
        pages: dict[str, set] = defaultdict(set)
        for j in own:
            pages[j["kind"]].add(j["page"])
        result.append(
            WorkerRow(
                worker=worker,
                tasks_done=len(real),
                median_seconds=statistics.median(j["seconds"] for j in own) if own else None,
                attention_checks=stored.attention,
                attention_pass_rate=stored.attention_pass_rate,
                self_consistency=stored.self_consistency,
                uniform_rate=sum(uniform) / len(uniform) if uniform else None,
                agreement=agree / total if total else None,
                quality=quality_verdict(stored, threshold=campaign.quality_threshold),
                pages=sum(len(p) for p in pages.values()),
                counted_pages=len(pages["counted"]),
                attention_pages=len(pages["attention"]),
                repeat_pages=len(pages["repeat"]),
            )
        )
    return result


def worker_rows(*, campaign: Campaign, workers: Iterable[Worker]) -> list[WorkerRow]:
    """:func:`worker_table`'s rows of ``workers`` alone (a page of the workers API, the
    row of a worker the monitor just changed), in the table's order."""
    return worker_table(
        campaign=campaign, workers=Worker.objects.filter(pk__in=[w.pk for w in workers])
    )
