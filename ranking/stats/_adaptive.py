"""Adaptive task design: which systems the next batch of tasks shows.

Pure numpy. After each batch of judgements a ranking is refitted; this module reads its
per-system state (value, uncertainty, rank range) and chooses the systems of the next
``n_tasks`` tasks of ``k`` outputs each, so that the judgements go where the clusters
are still undecided rather than evenly over all systems.

The rule, in three steps (every step is logged in the returned :class:`AdaptiveBatch`):

1. *Contested gaps.* Take the systems in order of value. Between positions ``p`` and
   ``p + 1`` (ranks ``p + 1 | p + 2``) the WMT14 cluster rule
   (:func:`~ranking.stats._clusters.clusters_from_ranges`) puts a boundary when the
   worst rank of the system at ``p`` is better than the best rank of every system
   below. The gap's *overlap* is the number of ranks shared across it,
   ``o_p = rank_hi[order[p]] - min(rank_lo[order[p+1:]]) + 1`` (``o_p <= 0``: a
   boundary). A gap is *contested* when ``0 < o_p <= margin``: no boundary yet, but
   the ranges across it share ``margin`` ranks or fewer (two systems that swap places
   share two), so a little more data may open one. Every other gap is settled: a
   boundary already drawn (``o_p <= 0``; if later data close it again, the next
   batch sees it as contested), or a deep tie that more judgements would hardly
   change (``o_p > margin``).
2. *Quotas.* The batch has ``n_tasks * k`` slots. Every system first gets its coverage
   minimum, ``floor(min_share * n_tasks * k / n_systems)`` slots (``min_share = 1``
   is the balanced design's share); the rest go to the *boundary systems* (the two
   systems beside a contested gap and every system whose rank range crosses it),
   in proportion to their uncertainty ``sigma`` times the number of contested gaps
   they touch, largest sigma first when rounding; a system gets at most one slot per
   task. What the boundary systems cannot take goes to the others by sigma. With no
   contested gap (or no state yet: equal sigmas, full ranges) this is the balanced
   allocation.
3. *Tasks.* The quotas are dealt into tasks: each task takes the ``k`` systems with the
   largest remaining quota (ties in a random order), which keeps the systems of a task
   distinct and always succeeds while no quota exceeds the tasks left; then the order
   within each task is shuffled (position balance).

A second rule, ``rule="overlap"`` (:func:`overlap_weights`), is *uncertainty sampling*
over pairs as in active evaluation of chatbots and MT (Chatbot Arena's active sampling,
Chiang et al. 2024; Sakaguchi et al. 2014's choice of close opponents): every pair
``(a, b)`` weighs the probability that its current order is wrong,
``Phi(-|value_a - value_b| / sqrt(sigma_a^2 + sigma_b^2))``, plus a floor (``min_share``
times the mean weight) that keeps every pair possible; each task draws its first pair by
weight, then adds one system at a time with probability proportional to the summed
weights of its pairs with the task's members (plus the floor). It needs no rank ranges
and no cluster rule.

A third rule, ``rule="lucb"`` (:func:`lucb_gaps`), follows LUCB (Kalyanakrishnan et al.
2012: to find the best ``m`` arms, sample the weakest arm of the top set and the
strongest of the rest while their confidence bounds overlap), once per cluster
boundary: every system has the interval ``value +- LUCB_WIDTH * sigma``; the gap after
position ``p`` (value order) is *resolved* when the lowest lower bound above it clears
the highest upper bound below it; an unresolved gap is *promising* when its two
neighbours differ by at least ``LUCB_PROMISE`` sigmas of their difference (deep ties,
which no affordable amount of data separates, are left alone). Its *ambiguous set* is
every system whose interval crosses the gap's two bounds (the ones that keep it
unresolved). Every system keeps its coverage minimum (``min_share`` of its balanced
share, as in the first rule); the other slots go to the systems of the promising gaps
in proportion to ``1 / d^2``, ``d`` the value difference to a system's closest rival
across a promising gap (LUCB's sample complexity; floored at half the smallest gap),
and what they cannot take by sigma; the quotas are dealt into tasks as in step 3. With
no promising gap this is the allocation by sigma.
``benchmarks/simulate.py`` compares the three rules with the balanced design on a
simulator fitted to the E2E ratings.

Choosing a batch for 21 systems takes well under a millisecond (``benchmarks/replay.py``
measures it). The same generator state gives the same batch.

References
----------
Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations for
human evaluation of machine translation. WMT 2014, 1-11 (choosing the next comparison by
the largest sigma).
Bojar, O. et al. (2014). Findings of the 2014 Workshop on Statistical Machine
Translation. WMT 2014, 12-58, section 3.3 (clusters from rank ranges).
Kalyanakrishnan, S., Tewari, A., Auer, P. and Stone, P. (2012). PAC subset selection in
stochastic multi-armed bandits. ICML 2012 (LUCB).
Chiang, W.-L. et al. (2024). Chatbot Arena: an open platform for evaluating LLMs by human
preference. ICML 2024, section 5 (active sampling of the pairs whose order is least
certain).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._bradley_terry import bt_normal
from ._clusters import value_order
from ._pairwise import judgements_to_comparisons, pair_counts
from ._result import RankingResult

__all__ = [
    "REFIT_CONFIDENCE",
    "REFIT_DRAWS",
    "RULES",
    "AdaptiveBatch",
    "AdaptiveRefit",
    "TaskChoice",
    "adaptive_refit",
    "choose_batch",
    "contested_gaps",
    "lucb_gaps",
    "overlap_weights",
]

#: the adaptive rules: contested gaps of the rank ranges, pairwise uncertainty, or
#: LUCB-style confidence bounds per cluster boundary
RULES = ("contested", "overlap", "lucb")

#: ``lucb``: half-width of a system's interval in sigmas (two intervals this wide are
#: apart when the difference is about 1.96 of its sigmas: a 95% separation)
LUCB_WIDTH = 1.39
#: ``lucb``: a gap is worth pursuing when its two systems' difference is at least this
#: many of its sigmas (deep ties are left alone)
LUCB_PROMISE = 0.5

#: the refit's draws from the normal approximation and the confidence of its rank
#: ranges: those ``benchmarks/simulate.py`` validated the stop rule with
REFIT_DRAWS = 1000
REFIT_CONFIDENCE = 0.95

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: Why a system is in a task: it sits at a contested gap, it fills its coverage
#: minimum, or it took leftover slots by its uncertainty.
REASONS = ("boundary", "coverage", "uncertainty")


@dataclass(frozen=True, eq=False)
class AdaptiveRefit:
    """A refit of the judgements so far (:func:`adaptive_refit`).

    Attributes
    ----------
    result : RankingResult or None
        The ranking of the systems in ``ranked`` (in that order); None when fewer than
        two systems have a comparison.
    ranked : ndarray of int64
        The systems (indices into the comparisons' systems) with at least one
        comparison, ascending; the others have no rank yet.
    """

    result: RankingResult | None
    ranked: IntArray


def adaptive_refit(
    *,
    n_systems: int,
    judgement: ArrayLike,
    system: ArrayLike,
    score: ArrayLike,
    slot: ArrayLike | None = None,
    rng: np.random.Generator,
    draws: int = REFIT_DRAWS,
    confidence: float = REFIT_CONFIDENCE,
) -> AdaptiveRefit:
    """The adaptive design's refit: Bradley-Terry with its normal approximation.

    The scores (one entry per judgement and output, as :func:`~ranking.stats.compute`
    takes them) become pairwise comparisons, every pair of a judgement's outputs one,
    equal scores a draw (:func:`~ranking.stats._pairwise.judgements_to_comparisons`),
    counted per pair (:func:`~ranking.stats._pairwise.pair_counts`) and ranked by
    :func:`~ranking.stats._bradley_terry.bt_normal` with ``draws`` rows of standard
    normals, drawn from ``rng`` as ``rng.standard_normal((draws, n_systems))`` for every
    system (so the draws do not depend on which systems have comparisons yet); the
    systems without a comparison are left out, their columns dropped. With every system
    compared this is exactly ``benchmarks/simulate.py``'s refit (``add_counts`` and
    ``bt_normal``) of the same judgements with the same normal numbers; a generator
    seeded the same for every refit gives every refit the same draws, as the
    simulator's do (common random numbers).

    Takes a few milliseconds for 21 systems; counting the comparisons grows with the
    judgements, the fit does not.
    """
    # judgements_to_comparisons takes array-likes as they come.
    comparisons = judgements_to_comparisons(
        judgement, system, score, n_systems=n_systems, slot=slot
    )
    normals = rng.standard_normal((draws, n_systems))
    wins, ties = pair_counts(comparisons)
    ranked = np.flatnonzero((wins + wins.T + ties).sum(axis=1) > 0).astype(np.int64)
    if ranked.size < 2:
        return AdaptiveRefit(result=None, ranked=ranked)
    pick = np.ix_(ranked, ranked)
    result = bt_normal(wins[pick], ties[pick], normals[:, ranked], confidence=confidence)
    return AdaptiveRefit(result=result, ranked=ranked)


@dataclass(frozen=True)
class TaskChoice:
    """One task's systems (in display order) and why each is there (see :data:`REASONS`)."""

    systems: tuple[int, ...]
    reasons: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class AdaptiveBatch:
    """The systems of a batch of tasks and the log of how they were chosen.

    Attributes
    ----------
    tasks : ndarray of int64, shape (n_tasks, k)
        System indices of each task, distinct within a row, in display order.
    quota : ndarray of int64, shape (n_systems,)
        Slots each system got in the batch (its number of tasks).
    minimum : int
        The coverage minimum every system got.
    gaps : ndarray of int64
        The contested gaps: position ``p`` in value order (between ranks ``p + 1`` and
        ``p + 2``).
    overlap : ndarray of int64, shape (n_systems - 1,)
        Every gap's overlap ``o_p`` (zero or less: a cluster boundary).
    boundary : ndarray of int64
        The boundary systems, by decreasing priority (sigma times contested gaps).
    choices : tuple of TaskChoice
        One record per task: its systems and the reason for each.
    """

    tasks: IntArray
    quota: IntArray
    minimum: int
    gaps: IntArray
    overlap: IntArray
    boundary: IntArray
    choices: tuple[TaskChoice, ...]

    def summary(self) -> dict[str, object]:
        """A small JSON-ready record of the decision (for a log line or a stored run)."""
        return {
            "tasks": int(self.tasks.shape[0]),
            "minimum": self.minimum,
            "contested_gaps": self.gaps.tolist(),
            "boundary_systems": self.boundary.tolist(),
            "quota": self.quota.tolist(),
        }


def contested_gaps(
    value: ArrayLike, rank_lo: ArrayLike, rank_hi: ArrayLike, *, margin: int = 3
) -> tuple[IntArray, IntArray, IntArray]:
    """The contested gaps of a ranking and how many of them each system touches.

    Parameters
    ----------
    value : array_like of float, shape (n_systems,)
    rank_lo, rank_hi : array_like of int, shape (n_systems,)
        Rank ranges (1 = best), as :class:`~ranking.stats.RankingResult` holds them.
    margin : int, default 3
        A gap is contested when its overlap lies in ``(0, margin]``: unresolved, and
        its ranges share at most ``margin`` ranks.

    Returns
    -------
    gaps : ndarray of int64
        Positions ``p`` (in value order) of the contested gaps.
    overlap : ndarray of int64, shape (n_systems - 1,)
        Each gap's overlap, the ranks shared across it (see the module).
    touches : ndarray of int64, shape (n_systems,)
        Per system, the number of contested gaps it sits beside or whose ranks
        ``p + 1 | p + 2`` its range crosses.
    """
    lo = np.asarray(rank_lo, dtype=np.int64)
    hi = np.asarray(rank_hi, dtype=np.int64)
    order = value_order(value)
    n = order.shape[0]
    touches = np.zeros(n, dtype=np.int64)
    if n < 2:
        return np.empty(0, np.int64), np.empty(0, np.int64), touches
    below = np.minimum.accumulate(lo[order][::-1])[::-1]  # best rank at or below p
    overlap = hi[order][:-1] - below[1:] + 1
    gaps = np.flatnonzero((overlap > 0) & (overlap <= margin))
    gaps = gaps.astype(np.int64)
    for p in gaps:
        crossing = (lo <= p + 1) & (hi >= p + 2)
        crossing[order[p]] = crossing[order[p + 1]] = True
        touches += crossing
    return gaps, overlap.astype(np.int64), touches


def _apportion(weights: FloatArray, total: int, cap: IntArray, tiebreak: FloatArray) -> IntArray:
    """Integer shares of ``total`` proportional to ``weights``, each at most ``cap``.

    Water-filling with largest-remainder rounding; ``tiebreak`` (larger first) orders
    equal remainders. Gives less than ``total`` only when the capacity runs out.
    """
    out = np.zeros(weights.shape[0], dtype=np.int64)
    left = int(total)
    active = (weights > 0) & (cap > 0)
    while left > 0 and active.any():
        w = np.where(active, weights, 0.0)
        ideal = left * w / w.sum()
        room = cap - out
        share = np.minimum(np.floor(ideal).astype(np.int64), room)
        if share.sum() == 0:
            # hand out single slots by remainder, then priority
            rest = np.where(active, ideal - np.floor(ideal), -np.inf)
            order = np.lexsort((-tiebreak, -rest))
            for i in order[: min(left, int(active.sum()))]:
                out[i] += 1
                left -= 1
        else:
            out += share
            left -= int(share.sum())
        active &= out < cap
    return out


def _deal(
    quota: IntArray, n_tasks: int, k: int, rng: np.random.Generator, reasons: list[str]
) -> tuple[IntArray, list[TaskChoice]]:
    """Deal the quotas into tasks: each takes the ``k`` systems with the most left."""
    n = quota.shape[0]
    left = quota.copy()
    tasks = np.empty((n_tasks, k), dtype=np.int64)
    choices = []
    for t in range(n_tasks):
        keys = np.asarray(rng.random(n), dtype=np.float64)
        picked = np.lexsort((keys, -left))[:k]
        left[picked] -= 1
        shown = picked[rng.permutation(k)]
        tasks[t] = shown
        choices.append(
            TaskChoice(
                systems=tuple(int(s) for s in shown),
                reasons=tuple(reasons[int(s)] for s in shown),
            )
        )
    return tasks, choices


def choose_batch(
    *,
    value: ArrayLike,
    sigma: ArrayLike,
    rank_lo: ArrayLike,
    rank_hi: ArrayLike,
    n_tasks: int,
    k: int,
    rng: np.random.Generator,
    min_share: float = 0.3,
    margin: int = 3,
    rule: str = "contested",
) -> AdaptiveBatch:
    """Choose the systems of the next ``n_tasks`` tasks of ``k`` outputs each.

    Parameters
    ----------
    value : array_like of float, shape (n_systems,)
        Current value of each system (TrueSkill mean mu, or any score, higher better).
    sigma : array_like of float, shape (n_systems,)
        Its uncertainty (TrueSkill sigma, or the spread of mu over WMT14 runs).
    rank_lo, rank_hi : array_like of int, shape (n_systems,)
        Current rank ranges. Before any data: equal values and sigmas and ranges
        ``[1, n_systems]`` give the balanced allocation.
    n_tasks : int
        Tasks in the batch (at least 1).
    k : int
        Outputs (distinct systems) per task, ``2 <= k <= n_systems``.
    rng : numpy.random.Generator
        Breaks ties and shuffles the order within tasks; the same state gives the same
        batch.
    min_share : float, default 0.3
        Coverage minimum as a share of the balanced ``n_tasks * k / n_systems`` slots
        (0: none, 1: the balanced design).
    margin : int, default 3
        How close to a boundary a gap must be to be contested (see
        :func:`contested_gaps`).
    rule : str, default "contested"
        ``contested`` (the module's three steps), ``overlap`` (pairwise uncertainty
        sampling, :func:`overlap_weights`; ``min_share`` is then the floor of every
        pair's weight as a share of the mean weight) or ``lucb`` (confidence bounds
        per cluster boundary, :func:`lucb_gaps`; ``min_share`` is the coverage minimum
        as for ``contested``). With the last two, ``margin`` only names the
        contested gaps of the log.

    Returns
    -------
    AdaptiveBatch
        The tasks and the log of the decision.
    """
    values = np.asarray(value, dtype=np.float64)
    sigmas = np.asarray(sigma, dtype=np.float64)
    n = values.shape[0]
    if sigmas.shape != (n,) or np.shape(rank_lo) != (n,) or np.shape(rank_hi) != (n,):
        raise ValueError("value, sigma, rank_lo and rank_hi need one entry per system")
    if not 2 <= k <= n:
        raise ValueError(f"k must lie in 2 .. n_systems ({n})")
    if n_tasks < 1:
        raise ValueError("n_tasks must be at least 1")
    if not 0 <= min_share <= 1:
        raise ValueError("min_share must lie in [0, 1]")
    if not np.all(np.isfinite(sigmas)) or np.any(sigmas < 0):
        raise ValueError("sigma must be finite and non-negative")
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}")
    if rule == "overlap":
        return _choose_overlap(values, sigmas, rank_lo, rank_hi, n_tasks, k, rng, min_share, margin)
    if rule == "lucb":
        return _choose_lucb(values, sigmas, rank_lo, rank_hi, n_tasks, k, rng, min_share, margin)

    gaps, overlap, touches = contested_gaps(values, rank_lo, rank_hi, margin=margin)
    priority = touches.astype(np.float64) * _sigma_weight(sigmas)
    return _allocate(
        priority=priority,
        sigmas=sigmas,
        n_tasks=n_tasks,
        k=k,
        min_share=min_share,
        rng=rng,
        gaps=gaps,
        overlap=overlap,
    )


def _sigma_weight(sigmas: FloatArray) -> FloatArray:
    """Sigma, floored so that a system with zero spread can still take leftovers."""
    return np.maximum(sigmas, 1e-9 + 1e-3 * float(sigmas.max(initial=0.0)))


def _allocate(
    *,
    priority: FloatArray,
    sigmas: FloatArray,
    n_tasks: int,
    k: int,
    min_share: float,
    rng: np.random.Generator,
    gaps: IntArray,
    overlap: IntArray,
) -> AdaptiveBatch:
    """Quotas and tasks shared by the ``contested`` and ``lucb`` rules.

    Every system gets its coverage minimum; the slots left go by ``priority`` (the
    rule's boundary demand), what those systems cannot take by sigma; the quotas are
    then dealt into tasks (:func:`_deal`).
    """
    n = priority.shape[0]
    slots = n_tasks * k
    minimum = min(int(np.floor(min_share * slots / n)), n_tasks)
    cap = np.full(n, n_tasks, dtype=np.int64)
    quota = np.full(n, minimum, dtype=np.int64)
    weight = _sigma_weight(sigmas)
    extra = _apportion(priority, slots - int(quota.sum()), cap - quota, priority)
    quota += extra
    fill = _apportion(weight, slots - int(quota.sum()), cap - quota, weight)
    quota += fill
    boundary = np.flatnonzero(priority > 0)
    boundary = boundary[np.lexsort((boundary, -priority[boundary]))].astype(np.int64)
    # why a system is in the batch: boundary slots, else leftover slots by its
    # uncertainty, else its coverage minimum alone
    reasons = [
        "boundary" if extra[i] > 0 else "uncertainty" if fill[i] > 0 else "coverage"
        for i in range(n)
    ]
    tasks, choices = _deal(quota, n_tasks, k, rng, reasons)
    return AdaptiveBatch(
        tasks=tasks,
        quota=quota,
        minimum=minimum,
        gaps=gaps,
        overlap=overlap,
        boundary=boundary,
        choices=tuple(choices),
    )


def overlap_weights(value: ArrayLike, sigma: ArrayLike) -> FloatArray:
    """Each pair's probability that its current order is wrong (zero diagonal).

    ``Phi(-|value_a - value_b| / sqrt(sigma_a^2 + sigma_b^2))`` (the normal
    approximation, values independent); 1/2 for a pair with no uncertainty and equal
    values, 0 for a pair with none and different values.
    """
    v = np.asarray(value, dtype=np.float64)
    s = np.asarray(sigma, dtype=np.float64)
    gap = np.abs(v[:, None] - v[None, :])
    spread = np.sqrt(s[:, None] ** 2 + s[None, :] ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(spread > 0, gap / spread, np.where(gap > 0, np.inf, 0.0))
    weights = 0.5 * np.vectorize(math.erfc, otypes=[np.float64])(t / math.sqrt(2.0))
    np.fill_diagonal(weights, 0.0)
    return weights


def _choose_overlap(
    values: FloatArray,
    sigmas: FloatArray,
    rank_lo: ArrayLike,
    rank_hi: ArrayLike,
    n_tasks: int,
    k: int,
    rng: np.random.Generator,
    min_share: float,
    margin: int,
) -> AdaptiveBatch:
    """The ``overlap`` rule of :func:`choose_batch` (see the module)."""
    n = values.shape[0]
    weights = overlap_weights(values, sigmas)
    upper = weights[np.triu_indices(n, 1)]
    floor = max(min_share * float(upper.mean()), 1e-12)
    pair_w = weights + floor
    np.fill_diagonal(pair_w, 0.0)
    first = pair_w[np.triu_indices(n, 1)]
    rows, cols = np.triu_indices(n, 1)
    tasks = np.empty((n_tasks, k), dtype=np.int64)
    choices = []
    for t in range(n_tasks):
        p = int(rng.choice(first.shape[0], p=first / first.sum()))
        members = [int(rows[p]), int(cols[p])]
        while len(members) < k:
            pull = pair_w[:, members].sum(axis=1)
            pull[members] = 0.0
            members.append(int(rng.choice(n, p=pull / pull.sum())))
        shown = np.asarray(members, dtype=np.int64)[rng.permutation(k)]
        tasks[t] = shown
        choices.append(
            TaskChoice(
                systems=tuple(int(s) for s in shown),
                reasons=("uncertainty",) * k,
            )
        )
    gaps, overlap, _ = contested_gaps(values, rank_lo, rank_hi, margin=margin)
    priority = weights.sum(axis=1)
    boundary = np.lexsort((np.arange(n), -priority)).astype(np.int64)
    return AdaptiveBatch(
        tasks=tasks,
        quota=np.bincount(tasks.ravel(), minlength=n).astype(np.int64),
        minimum=0,
        gaps=gaps,
        overlap=overlap,
        boundary=boundary,
        choices=tuple(choices),
    )


def lucb_gaps(
    value: ArrayLike,
    sigma: ArrayLike,
    rank_lo: ArrayLike | None = None,
    rank_hi: ArrayLike | None = None,
    *,
    width: float = LUCB_WIDTH,
    promise: float = LUCB_PROMISE,
) -> list[tuple[int, IntArray]]:
    """The promising unresolved gaps and their ambiguous sets (see the module).

    Returns one ``(p, systems)`` per gap worth pursuing, ``p`` its position in value
    order (between ranks ``p + 1`` and ``p + 2``) and ``systems`` its ambiguous set,
    the two critical systems first (the weakest bound above, the strongest below),
    then the others by decreasing sigma. With rank ranges, a gap counts as resolved
    only when the cluster rule also draws a boundary there.
    """
    v = np.asarray(value, dtype=np.float64)
    s = np.asarray(sigma, dtype=np.float64)
    order = value_order(v)
    n = order.shape[0]
    low = v - width * s
    high = v + width * s
    boundary = np.zeros(max(n - 1, 0), dtype=np.bool_)
    if rank_lo is not None and rank_hi is not None:
        lo = np.asarray(rank_lo, dtype=np.int64)
        hi = np.asarray(rank_hi, dtype=np.int64)
        below_best = np.minimum.accumulate(lo[order][::-1])[::-1]
        above_worst = np.maximum.accumulate(hi[order])
        boundary = above_worst[:-1] < below_best[1:]
    found = []
    for p in range(n - 1):
        above, below = order[: p + 1], order[p + 1 :]
        weak = int(above[np.argmin(low[above])])
        strong = int(below[np.argmax(high[below])])
        floor_above, top_below = float(low[weak]), float(high[strong])
        resolved = floor_above > top_below
        if resolved and (rank_lo is None or boundary[p]):
            continue
        # promising: the critical pair's difference is at least ``promise`` times what
        # separating it takes now, i.e. within reach of (1 / promise)^2 times the data
        need = width * (float(s[weak]) + float(s[strong]))
        if need > 0 and (v[weak] - v[strong]) < promise * need:
            continue
        crossing = np.concatenate(
            [above[low[above] <= top_below], below[high[below] >= floor_above]]
        )
        rest = [
            int(c)
            for c in crossing[np.lexsort((crossing, -s[crossing]))]
            if c not in (weak, strong)
        ]
        found.append((p, np.asarray([weak, strong, *rest], dtype=np.int64)))
    return found


def _choose_lucb(
    values: FloatArray,
    sigmas: FloatArray,
    rank_lo: ArrayLike,
    rank_hi: ArrayLike,
    n_tasks: int,
    k: int,
    rng: np.random.Generator,
    min_share: float,
    margin: int,
) -> AdaptiveBatch:
    """The ``lucb`` rule of :func:`choose_batch` (see the module)."""
    n = values.shape[0]
    order = value_order(values)
    promising = lucb_gaps(values, sigmas, rank_lo, rank_hi, width=LUCB_WIDTH, promise=LUCB_PROMISE)
    demand = np.zeros(n)
    if promising:
        # each system's closest rival across a promising gap: it needs data in
        # proportion to 1 / difference^2 (LUCB's sample complexity)
        closest = np.full(n, np.inf)
        for p, _ in promising:
            above, below = order[: p + 1], order[p + 1 :]
            diff = values[above][:, None] - values[below][None, :]
            closest[above] = np.minimum(closest[above], diff.min(axis=1))
            closest[below] = np.minimum(closest[below], diff.min(axis=0))
        smallest = min(float(values[order[p]] - values[order[p + 1]]) for p, _ in promising)
        floor = max(0.5 * smallest, 1e-12)
        demand = 1.0 / np.maximum(closest, floor) ** 2
    gaps, overlap, _ = contested_gaps(values, rank_lo, rank_hi, margin=margin)
    return _allocate(
        priority=demand,
        sigmas=sigmas,
        n_tasks=n_tasks,
        k=k,
        min_share=min_share,
        rng=rng,
        gaps=gaps,
        overlap=overlap,
    )
