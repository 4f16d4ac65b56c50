"""Reads of judgements for rankings."""

from __future__ import annotations

from itertools import groupby
from typing import NamedTuple

from annotations.models import Assignment, Criterion, JudgementScore, Task, TaskOutput


class RankingRow(NamedTuple):
    """One judgement: its id, and the system and score of each output it scored."""

    judgement_id: int
    system_ids: tuple[int, ...]
    scores: tuple[float, ...]


def judgements_for_ranking(
    *, criterion: Criterion, exclude_excluded_workers: bool
) -> list[RankingRow]:
    """The judgements of a criterion that count for its ranking, in submission order.

    Counted: tasks of kind regular or imported, assignments that are not repeats, and
    regular (not degraded) outputs. Merged identical outputs appear once per system with
    the slot's score. With ``exclude_excluded_workers`` the judgements of workers an
    organizer excluded are left out (they stay stored). One query (``values_list``).
    """
    qs = JudgementScore.objects.filter(
        judgement__criterion=criterion,
        role=TaskOutput.Role.REGULAR,
        judgement__task__kind__in=[Task.Kind.REGULAR, Task.Kind.IMPORTED],
    ).exclude(judgement__assignment__kind=Assignment.Kind.REPEAT)
    if exclude_excluded_workers:
        qs = qs.exclude(judgement__worker__excluded=True)
    rows = qs.order_by("judgement__submitted_at", "judgement_id", "slot", "output_id").values_list(
        "judgement_id", "output__system_id", "score"
    )
    result: list[RankingRow] = []
    for judgement_id, group in groupby(rows.iterator(chunk_size=5000), key=lambda r: r[0]):
        members = list(group)
        result.append(
            RankingRow(
                judgement_id=judgement_id,
                system_ids=tuple(m[1] for m in members),
                scores=tuple(m[2] for m in members),
            )
        )
    return result
