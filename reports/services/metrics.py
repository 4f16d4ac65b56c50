"""Writes for metric-human correlation: importing automatic metric scores.

A file names systems by label and items by external id (segment-level rows) or systems
alone (system-level rows). Re-importing a metric **replaces** every stored score of that
metric in the campaign (segment and system level alike); metrics the file does not name
stay as they are. All rows are checked before anything is written, in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.db import transaction

from annotations.models import Campaign
from common.errors import ImportFileError
from reports.core.metric_files import parse_metric_file
from reports.models import MetricScore


class MetricCount(NamedTuple):
    """One metric an import stored: its name, its segment-level and system-level scores."""

    metric: str
    segment_scores: int
    system_scores: int


@dataclass(frozen=True)
class MetricImport:
    """What an import stored: per metric (name, segment-level, system-level scores), and
    how many stored scores it replaced."""

    metrics: list[MetricCount]
    replaced: int


@transaction.atomic
def metric_scores_import(
    *, campaign: Campaign, data: bytes, file: str, fmt: str | None = None
) -> MetricImport:
    """Import a CSV or JSONL metric file into ``campaign`` (see the module docstring).

    ``file`` is the name errors give (the name the user chose, never a server path).
    Raises ``ImportFileError`` naming the file, line and field; nothing is then written.
    """
    rows = parse_metric_file(data, file=file, fmt=fmt)
    systems = dict(campaign.systems.values_list("label", "pk"))
    outputs = {
        (item, system): pk
        for pk, item, system in campaign.items.values_list(
            "outputs__pk", "external_id", "outputs__system_id"
        )
        if pk is not None
    }
    new: list[MetricScore] = []
    counts: dict[str, list[int]] = {}
    for row in rows:
        system_id = systems.get(row.system)
        if system_id is None:
            raise ImportFileError(
                f"the campaign has no system '{row.system}'.",
                file=file,
                line=row.line,
                field="system",
            )
        output_id = None
        if row.item is not None:
            output_id = outputs.get((row.item, system_id))
            if output_id is None:
                raise ImportFileError(
                    f"the campaign has no output of system '{row.system}' for item '{row.item}'.",
                    file=file,
                    line=row.line,
                    field="item",
                )
        new.append(
            MetricScore(
                campaign=campaign,
                metric=row.metric,
                system_id=system_id,
                output_id=output_id,
                score=row.score,
            )
        )
        counts.setdefault(row.metric, [0, 0])[0 if output_id is not None else 1] += 1
    replaced, _ = MetricScore.objects.filter(campaign=campaign, metric__in=list(counts)).delete()
    MetricScore.objects.bulk_create(new, batch_size=2000)
    return MetricImport(
        metrics=[MetricCount(name, seg, sys) for name, (seg, sys) in sorted(counts.items())],
        replaced=replaced,
    )
