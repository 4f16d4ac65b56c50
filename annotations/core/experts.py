"""Crowd versus experts: how far each crowd worker agrees with the experts, and how far
the crowd's ranking of the systems agrees with the experts' (pure numpy and scipy).

GEM asks for gold annotations by experts to check the consistency of crowd
annotations. Two figures, each with a percentile bootstrap confidence interval:

- per crowd worker, Krippendorff's alpha among that worker and the experts on the units
  they share (a unit is one output: one system's output for one item, whatever task
  showed it; values are scores, interval level), the bootstrap resampling items (an
  item's units move together);
- per criterion, the Spearman and Kendall (tau-b) correlation between the systems'
  mean ranks among crowd judgements and among expert judgements, the bootstrap
  resampling items.

No Django here: ``annotations.selectors.experts`` reads the judgements.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from annotations.core.agreement import krippendorff_alpha_long

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its percentile bootstrap interval (NaN when undefined).

    ``reason`` says why the value is undefined, ``interval_reason`` why the interval is
    (a value can be defined while its interval is not: a bootstrap over one item cannot
    vary, so its "interval" would be a single point)."""

    value: float
    low: float
    high: float
    n: int  # units (alpha) or systems (correlation) it rests on
    reason: str = ""
    interval_reason: str = ""

    @property
    def defined(self) -> bool:
        return not math.isnan(self.value)

    @property
    def interval_defined(self) -> bool:
        return self.defined and not (math.isnan(self.low) or math.isnan(self.high))


UNDEFINED = Estimate(float("nan"), float("nan"), float("nan"), 0, "no data")
NAN = float("nan")


def _interval(samples: np.ndarray) -> tuple[float, float]:
    finite = samples[np.isfinite(samples)]
    if finite.size == 0:
        return float("nan"), float("nan")
    tail = (1.0 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return float(low), float(high)


def _no_interval(low: float) -> str:
    return "no bootstrap resample gave a defined value" if math.isnan(low) else ""


def alpha_with_experts(
    task: np.ndarray,
    unit: np.ndarray,
    value: np.ndarray,
    *,
    rng: np.random.Generator,
    resamples: int = 1000,
) -> Estimate:
    """Krippendorff's alpha (interval) of one worker with the experts, bootstrapped.

    ``task``, ``unit`` and ``value`` are long-format entries, one per (coder, unit): the
    worker's values and the experts' values on the units the worker judged; ``task`` is
    the group a unit belongs to (its item). The bootstrap draws the groups with
    replacement; a group drawn twice contributes its units twice (as distinct units).

    At the interval level alpha needs only sums, and the sums of a resample are the
    drawn tasks' sums weighted by how often each was drawn: with m values in a unit,
    its ordered pairs disagree by (2 m S2 - 2 S1^2) / (m - 1) (S1, S2: the sum of its
    values and of their squares), and all pairable values by 2 n S2 - 2 S1^2. So every
    resample costs a product of its draw counts with per-task sums, not a recount.
    """
    task = np.asarray(task)
    unit = np.asarray(unit)
    value = np.asarray(value, dtype=float)
    point = krippendorff_alpha_long(unit, value, level="interval")
    if unit.size == 0:
        return UNDEFINED
    _, unit_index = np.unique(unit, return_inverse=True)
    m = np.bincount(unit_index)
    # Units with a value from the worker and at least one expert: what alpha rests on.
    units = int((m >= 2).sum())
    if units < 2:
        # With one unit, observed and expected disagreement are the same pairs: alpha is
        # 0 by construction, whatever the scores; it says nothing about agreement.
        return Estimate(
            NAN, NAN, NAN, units, f"needs 2 or more outputs judged by both ({units} shared)"
        )
    if math.isnan(point):
        return Estimate(
            point, NAN, NAN, units, "every shared score is the same: nothing to agree on"
        )
    pairable = m[unit_index] >= 2
    s1_u = np.bincount(unit_index, weights=value)
    s2_u = np.bincount(unit_index, weights=value**2)
    with np.errstate(divide="ignore", invalid="ignore"):
        within_u = np.where(m >= 2, (2 * m * s2_u - 2 * s1_u**2) / (m - 1.0), 0.0)
    # The task of each unit (a unit lies in one task).
    tasks, task_of_unit = np.unique(
        np.bincount(unit_index, weights=task.astype(float)) / m, return_inverse=True
    )
    n_tasks = len(tasks)
    task_of_value = task_of_unit[unit_index]
    within = np.bincount(task_of_unit, weights=within_u, minlength=n_tasks)
    n = np.bincount(task_of_value, weights=pairable.astype(float), minlength=n_tasks)
    s1 = np.bincount(task_of_value, weights=np.where(pairable, value, 0.0), minlength=n_tasks)
    s2 = np.bincount(task_of_value, weights=np.where(pairable, value**2, 0.0), minlength=n_tasks)
    draws = rng.integers(0, n_tasks, size=(resamples, n_tasks))
    counts = np.zeros((resamples, n_tasks))
    np.add.at(counts, (np.repeat(np.arange(resamples), n_tasks), draws.ravel()), 1.0)
    big_n = counts @ n
    observed = (counts @ within) / big_n
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = (2 * big_n * (counts @ s2) - 2 * (counts @ s1) ** 2) / (big_n * (big_n - 1))
        samples = np.where(expected > 0, 1.0 - observed / expected, np.nan)
    items_shared = len(np.unique(task_of_unit[m >= 2]))
    if items_shared < 2:
        return Estimate(
            point,
            NAN,
            NAN,
            units,
            interval_reason="every shared output is from one item: resampling items cannot vary it",
        )
    low, high = _interval(samples)
    return Estimate(point, low, high, units, interval_reason=_no_interval(low))


@dataclass(frozen=True)
class RankingAgreement:
    spearman: Estimate
    kendall: Estimate


def ranking_agreement(
    item: np.ndarray,
    system: np.ndarray,
    rank: np.ndarray,
    expert: np.ndarray,
    *,
    rng: np.random.Generator,
    resamples: int = 1000,
) -> RankingAgreement:
    """Spearman and Kendall tau-b between the crowd's and the experts' system orders.

    One entry per score: its item, system (integer codes), rank within its judgement
    (1 = best) and whether an expert gave it. Each side orders the systems by mean
    rank; systems one side never judged are left out. The bootstrap draws items with
    replacement.
    """
    item = np.asarray(item)
    system = np.asarray(system)
    rank = np.asarray(rank, dtype=float)
    expert = np.asarray(expert, dtype=bool)

    def correlations(rows: np.ndarray) -> tuple[float, float, int]:
        n_systems = int(system.max()) + 1
        sides = []
        for side in (False, True):
            chosen = rows[expert[rows] == side]
            total = np.bincount(system[chosen], weights=rank[chosen], minlength=n_systems)
            count = np.bincount(system[chosen], minlength=n_systems)
            sides.append((total, count))
        both = (sides[0][1] > 0) & (sides[1][1] > 0)
        if both.sum() < 3:
            return float("nan"), float("nan"), int(both.sum())
        crowd = sides[0][0][both] / sides[0][1][both]
        experts = sides[1][0][both] / sides[1][1][both]
        if np.ptp(crowd) == 0 or np.ptp(experts) == 0:
            return float("nan"), float("nan"), int(both.sum())
        from scipy import stats  # here, not at import: 1-2 s of every process's start-up

        rho = float(stats.spearmanr(crowd, experts).statistic)
        tau = float(stats.kendalltau(crowd, experts, variant="b").statistic)
        return rho, tau, int(both.sum())

    if item.size == 0:
        return RankingAgreement(UNDEFINED, UNDEFINED)
    rho, tau, n = correlations(np.arange(item.size))
    if math.isnan(rho):
        why = (
            f"needs 3 or more systems judged by both ({n} are)"
            if n < 3
            else "every system has the same mean rank on one side"
        )
        undefined = Estimate(NAN, NAN, NAN, n, why)
        return RankingAgreement(undefined, undefined)
    items, item_index = np.unique(item, return_inverse=True)
    if len(items) < 2:
        why = "every judgement is of one item: resampling items cannot vary it"
        return RankingAgreement(
            Estimate(rho, NAN, NAN, n, interval_reason=why),
            Estimate(tau, NAN, NAN, n, interval_reason=why),
        )
    by_item = [np.flatnonzero(item_index == i) for i in range(len(items))]
    rhos, taus = np.empty(resamples), np.empty(resamples)
    for r in range(resamples):
        drawn = rng.integers(0, len(items), size=len(items))
        rhos[r], taus[r], _ = correlations(np.concatenate([by_item[i] for i in drawn]))
    rho_low, rho_high = _interval(rhos)
    tau_low, tau_high = _interval(taus)
    return RankingAgreement(
        Estimate(rho, rho_low, rho_high, n, interval_reason=_no_interval(rho_low)),
        Estimate(tau, tau_low, tau_high, n, interval_reason=_no_interval(tau_low)),
    )
