"""Crowd versus experts, read from a criterion's judgements (``annotations.core.experts``).

Experts are workers marked ``expert`` (by an organizer, or on import with
``--experts``). Their judgements are the reference whatever their ``excluded`` flag
(exclude them to rank the systems on the crowd alone); crowd workers are everyone
else. The crowd's ranking leaves excluded crowd workers out, as rankings that leave
out excluded workers do, and is shown beside the crowd's ranking with them (the
exclusions' effect). Attention checks and repeats are left out, as everywhere agreement
is computed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from annotations.core.experts import (
    UNDEFINED,
    Estimate,
    RankingAgreement,
    alpha_with_experts,
    ranking_agreement,
)
from annotations.models import Criterion, Worker
from annotations.selectors.judgements import scores_counted

#: bootstrap resamples for the intervals (seeded: the report is the same on every load)
RESAMPLES = 1000
SEED = 20210601
#: what each worker's figure is, in the words every interface uses
ALPHA_MEANING = (
    "Krippendorff's alpha ({level}) between the worker and the experts' consensus (the "
    "experts' mean {values} on each output), on the outputs both judged"
)


@dataclass(frozen=True)
class WorkerVersusExperts:
    worker: Worker
    alpha: Estimate


@dataclass(frozen=True)
class ExpertReport:
    criterion: Criterion
    experts: int
    workers: list[WorkerVersusExperts]  # crowd workers sharing units with experts, worst first
    ranking: RankingAgreement  # excluded crowd workers left out
    #: the same with every crowd worker (excluded ones too): the exclusions' effect
    ranking_with_excluded: RankingAgreement | None = None
    #: excluded crowd workers with judgements on the criterion
    excluded: int = 0

    @property
    def available(self) -> bool:
        return self.experts > 0

    @property
    def alpha_meaning(self) -> str:
        """What each worker's ``alpha`` is, in one phrase (page, API, CSV)."""
        magnitude = self.criterion.scale == Criterion.Scale.MAGNITUDE
        return ALPHA_MEANING.format(
            level="interval, on log scores" if magnitude else "interval",
            values="log score" if magnitude else "score",
        )


def expert_report(
    *, criterion: Criterion, resamples: int = RESAMPLES, rng: np.random.Generator | None = None
) -> ExpertReport:
    """Each crowd worker's agreement with the experts' consensus and the
    crowd-versus-experts ranking correlation on one criterion, with bootstrap intervals
    (``rng`` seeded by default).

    A worker's figure is Krippendorff's alpha (interval level) with two coders, the
    worker and the experts' consensus (the mean of the experts' values on each output,
    log values for magnitude estimation), on the outputs both judged. Pooling the
    worker with each expert as separate coders would count the expert-expert pairs too,
    and the experts' agreement among themselves would lift a worker who ranks at random
    well above 0."""
    rng = rng if rng is not None else np.random.default_rng(SEED)
    raw = list(
        scores_counted(criterion=criterion).values_list(
            "judgement__worker_id",
            "judgement__worker__expert",
            "judgement__worker__excluded",
            "judgement__task_id",
            "judgement__task__item_id",
            "output_id",
            "output__system_id",
            "score",
            "rank",
        )
    )
    # Excluded crowd workers (experts stay the reference whatever their flag).
    dropped = np.array([excluded and not expert for _, expert, excluded, *_ in raw], dtype=bool)
    n_excluded = len({w for (w, *_), drop in zip(raw, dropped, strict=True) if drop})
    rows = [(w, expert, *rest) for w, expert, _, *rest in raw]
    experts = {w for w, expert, *_ in rows if expert}
    if not experts or not rows:
        return ExpertReport(criterion, len(experts), [], RankingAgreement(UNDEFINED, UNDEFINED))
    magnitude = criterion.scale == Criterion.Scale.MAGNITUDE
    # A unit is an output (one system's output for one item), whatever task showed it;
    # the bootstrap resamples items.
    data = np.array(
        [
            (worker, item, output, math.log(max(score, 1.0)) if magnitude else score)
            for worker, _, _, item, output, _, score, _ in rows
        ],
        dtype=float,
    )
    worker_col = data[:, 0].astype(np.int64)
    task_col = data[:, 1].astype(np.int64)
    unit_col = data[:, 2].astype(np.int64)
    is_expert = np.isin(worker_col, list(experts))
    # The experts' consensus on each unit they judged: the mean of their values (log
    # values for magnitude estimation), one value per unit.
    consensus_units, consensus = _unit_means(unit_col[is_expert], data[is_expert, 3])
    unit_task = dict(zip(unit_col.tolist(), task_col.tolist(), strict=True))
    crowd = sorted(set(worker_col[~is_expert].tolist()))
    estimates: list[tuple[int, Estimate]] = []
    for worker in crowd:
        mine = worker_col == worker
        units, values = _unit_means(unit_col[mine], data[mine, 3])
        shared = np.isin(units, consensus_units)
        if not shared.any():
            continue
        units, values = units[shared], values[shared]
        reference = consensus[np.searchsorted(consensus_units, units)]
        # Two coders on each shared unit: the worker (their mean if they judged it more
        # than once) and the experts' consensus. Expert-expert pairs never enter.
        estimates.append(
            (
                worker,
                alpha_with_experts(
                    np.tile([unit_task[u] for u in units.tolist()], 2),
                    np.tile(units, 2),
                    np.concatenate([values, reference]),
                    rng=rng,
                    resamples=resamples,
                ),
            )
        )
    by_id = Worker.objects.in_bulk([w for w, _ in estimates])
    estimates.sort(key=lambda pair: (not pair[1].defined, pair[1].value if pair[1].defined else 0))
    systems = np.array([system for *_, system, _, _ in rows])
    _, system_codes = np.unique(systems, return_inverse=True)
    item = np.array([item for _, _, _, item, *_ in rows])
    rank = np.array([rank for *_, rank in rows], dtype=float)
    is_expert_row = np.array([expert for _, expert, *_ in rows], dtype=bool)
    # Each ranking its own stream: the one with excluded workers cannot move the other.
    kept_rng, all_rng = rng.spawn(2)
    kept = ~dropped
    ranking = ranking_agreement(
        item[kept],
        system_codes[kept],
        rank[kept],
        is_expert_row[kept],
        rng=kept_rng,
        resamples=resamples,
    )
    with_excluded = (
        ranking_agreement(item, system_codes, rank, is_expert_row, rng=all_rng, resamples=resamples)
        if n_excluded
        else None
    )
    return ExpertReport(
        criterion,
        len(experts),
        [WorkerVersusExperts(by_id[w], estimate) for w, estimate in estimates],
        ranking,
        with_excluded,
        n_excluded,
    )


def _unit_means(units: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each unit's mean value: (sorted unit ids, their means)."""
    ids, index = np.unique(units, return_inverse=True)
    return ids, np.bincount(index, weights=values) / np.bincount(index)
