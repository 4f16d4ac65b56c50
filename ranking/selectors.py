"""Reads for rankings: the judgements a run uses, as integer-indexed arrays, and results."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
from django.db.models import QuerySet

from annotations.models import Criterion, JudgementScore, System

from .exports import Row
from .models import RankingRun


@dataclass(frozen=True)
class ScoreArrays:
    """Every score a ranking uses, one entry per (judgement, output).

    ``judgement`` numbers judgements 0..n_judgements-1 in submission order; ``system``
    indexes ``systems``; ``slot`` is the display slot (outputs merged into one slot
    share it and were not compared with each other by the worker).
    """

    systems: list[System]
    judgement: np.ndarray
    system: np.ndarray
    score: np.ndarray
    slot: np.ndarray
    fingerprint: str

    @property
    def n_judgements(self) -> int:
        return int(self.judgement[-1]) + 1 if self.judgement.size else 0


def ranking_scores(*, criterion: Criterion, exclude_excluded_workers: bool = True) -> ScoreArrays:
    """The scores of a criterion that count for its ranking.

    Left out: attention-check tasks, repeat assignments, degraded copies, and, when asked,
    judgements of workers an organizer excluded (they stay stored).
    """
    qs = JudgementScore.objects.filter(
        judgement__criterion=criterion,
        role="regular",
        judgement__task__kind__in=["regular", "imported"],
    ).exclude(judgement__assignment__kind="repeat")
    if exclude_excluded_workers:
        qs = qs.exclude(judgement__worker__excluded=True)
    rows = list(
        qs.order_by("judgement__submitted_at", "judgement_id", "slot", "output_id").values_list(
            "judgement_id", "output__system_id", "score", "slot"
        )
    )
    # Only systems that were judged: a system without comparisons has no rank.
    judged = {system_id for _, system_id, _, _ in rows}
    systems = list(
        System.objects.filter(campaign_id=criterion.campaign_id, pk__in=judged).order_by("label")
    )
    index = {s.pk: i for i, s in enumerate(systems)}
    digest = hashlib.sha256()
    judgement = np.empty(len(rows), dtype=np.int64)
    system = np.empty(len(rows), dtype=np.int64)
    score = np.empty(len(rows), dtype=np.float64)
    slot = np.empty(len(rows), dtype=np.int64)
    previous, number = None, -1
    for i, (judgement_id, system_id, value, slot_number) in enumerate(rows):
        if judgement_id != previous:
            previous, number = judgement_id, number + 1
        judgement[i], system[i], score[i], slot[i] = number, index[system_id], value, slot_number
        digest.update(f"{judgement_id}:{system_id}:{value!r}:{slot_number};".encode())
    return ScoreArrays(
        systems=systems,
        judgement=judgement,
        system=system,
        score=score,
        slot=slot,
        fingerprint=digest.hexdigest(),
    )


def ranking_run_rows(*, run: RankingRun) -> list[Row]:
    """A finished run's rows in ranking order (best value first)."""
    return [
        Row(
            system=r.system.label,
            value=r.value,
            spread=r.spread,
            rank_lo=r.rank_lo,
            rank_hi=r.rank_hi,
            cluster=r.cluster,
            comparisons=r.comparisons,
        )
        for r in run.results.select_related("system").order_by("cluster", "-value", "system__label")
    ]


def ranking_runs_for(*, criterion: Criterion) -> QuerySet[RankingRun]:
    return RankingRun.objects.filter(criterion=criterion).order_by("-created_at")
