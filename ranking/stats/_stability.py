"""Are the clusters settled? Split-half agreement and a runs estimate.

Rank ranges are sample quantiles of the per-run ranks, so they carry Monte Carlo error
that shrinks like ``1 / sqrt(runs)``; a cluster boundary that rests on a range end
within that error of the cut can flip with more runs or another seed. Two checks:

1. *Split half*: the runs are split at random into two halves, each ranked on its own
   (values = the half's mean run values, ranges and clusters as usual); we report
   whether the halves give the same partition, the adjusted Rand index between them,
   and the share of adjacent-pair boundary decisions (in value order) they agree on.
2. *Runs estimate*: a boundary decision of the full result whose margin
   ``min(rank_lo below) - rank_hi`` is 1 (a boundary) or 0 (touching ranges) flips if
   one of its two range ends moves by one rank; with margin -1 (ranges overlapping by
   one rank) it flips if both move. A range end moves
   when the share of runs beyond it crosses the trim share ``q = trim / runs``; with
   ``p`` the observed share at the neighbouring rank, the binomial standard error of
   that share is ``sqrt(q (1 - q) / runs)``, and the decision holds at ``z`` standard
   errors once ``runs >= z^2 q (1 - q) / (p - q)^2``. The largest such number over the
   fragile decisions is the suggestion (a heuristic: it treats each end on its own).
   ``p`` is itself estimated from the runs, and ``1 / (p - q)^2`` magnifies its error
   (one seed suggested 5,500 runs, the next 300, on the same data), so the suggestion
   is an interval: ``p`` at ``z`` of its own standard errors either side gives the
   fewest and the most runs the data allow; the fewest is never at or below the runs
   that just failed. The lower end (at least twice the runs), rounded up to two
   significant digits, is the number suggested; when it exceeds ``max_runs`` (what the
   platform accepts) no number is suggested and the note says that more runs than
   allowed would be needed. When the interval has no upper bound and its lower end is
   within twice the runs, the data give no estimate (a number would only be the
   doubling): no number is suggested and the note says so.

The verdict has one source: :attr:`ClusterStability.reasons`, the codes of the parts
of the check that failed (``halves_disagree``, ``fragile_boundaries``); the note and
every message elsewhere (:func:`stability_reasons`) are worded from them.

Coverage: the rank ranges trim ``ceil(runs * (1 - confidence) / 2)`` runs at each end,
as WMT's ``cluster.py`` does, so they keep *at most* the asked share of the runs (94
of 100 at 0.95; each half of 100 runs keeps 46 of 50); :func:`range_coverage` gives the
share actually kept, which the note and the pages state.

References
----------
Hubert, L. and Arabie, P. (1985). Comparing partitions. Journal of Classification 2,
193-218 (adjusted Rand index).
Koehn, P. (2004). Statistical significance tests for machine translation evaluation.
EMNLP 2004, 388-395.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._clusters import clusters_from_ranges, rank_ranges, trim_count, value_order
from ._result import RankingResult

__all__ = [
    "REASONS",
    "ClusterStability",
    "adjusted_rand_index",
    "cluster_stability",
    "min_runs_for",
    "range_coverage",
    "stability_reasons",
]

IntArray = NDArray[np.int64]

#: runs suggestions are capped here by default (a boundary exactly at the cut never
#: settles); callers pass the platform's own cap as ``max_runs``
MAX_RUNS = 100_000

#: the parts of the check that can fail, by code, in the words every message uses
REASONS: dict[str, str] = {
    "too_few_runs": "{runs:,} runs are too few for rank ranges at {confidence:.4g}% confidence: "
    "a range drops only whole runs at each end, so it keeps {kept:,} of {runs:,} runs "
    "({kept_share:.1%}), not the asked share (at least {min_runs:,} runs are needed)",
    "halves_disagree": "two random halves of the runs give different clusters",
    "fragile_boundaries": "{fragile} boundary decision(s) rest on rank-range ends within "
    "{z:g} standard errors of the trim cut",
}


def range_coverage(runs: int, confidence: float) -> tuple[int, float]:
    """The runs a rank range keeps after the trim at each end, and their share.

    ``(94, 0.94)`` for 100 runs at 0.95 (3 runs trimmed at each end, as WMT's
    ``cluster.py``), ``(190, 0.95)`` for 200.
    """
    kept = runs - 2 * trim_count(runs, confidence) if runs > 0 else 0
    return kept, (kept / runs if runs else 0.0)


def min_runs_for(confidence: float) -> int:
    """The fewest runs whose rank ranges keep the asked share of the runs: each end is
    asked to drop ``runs * (1 - confidence) / 2`` runs and drops that rounded up, so below
    ``2 / (1 - confidence)`` runs (40 at 0.95, 2,000 at 0.999) it drops a whole run where
    less was asked, and a range is narrower than the confidence claims (3 runs at 0.95
    keep 1 of 3). At least 4 (two halves of two runs for the split-half check)."""
    if confidence >= 1:
        return 4
    return max(4, math.ceil(2.0 / (1.0 - confidence) - 1e-9))


def stability_reasons(stored: Mapping[str, Any]) -> list[str]:
    """Why a stored check (:meth:`ClusterStability.as_dict`) is not stable, one clause
    per failed part, worded from :data:`REASONS`; empty when it is stable.

    Runs stored before ``reasons`` existed are read from ``agree`` and ``fragile``.
    """
    codes = stored.get("reasons")
    fragile = stored.get("fragile") or []
    if codes is None:
        codes = []
        if stored.get("agree") is False:
            codes.append("halves_disagree")
        if fragile:
            codes.append("fragile_boundaries")
        if not codes and stored.get("stable") is False:
            codes.append("halves_disagree")
    z = stored.get("z", 2.0)
    confidence = stored.get("confidence")
    level = float(confidence) if isinstance(confidence, int | float) else 0.95
    runs = int(stored.get("n_runs") or 0)
    kept, kept_share = range_coverage(runs, level) if 0 < level <= 1 else (runs, 1.0)
    return [
        REASONS[code].format(
            fragile=len(fragile),
            z=float(z) if z is not None else 2.0,
            runs=runs,
            confidence=100 * level,
            min_runs=int(stored.get("min_runs") or 0),
            kept=kept,
            kept_share=kept_share,
        )
        for code in codes
        if code in REASONS
    ]


def _round_up(runs: float) -> int:
    """Up to two significant digits (and to a multiple of 100): 5,412 -> 5,500."""
    if runs <= 100:
        return 100
    step = max(100, 10 ** (math.floor(math.log10(runs)) - 1))
    return int(math.ceil(runs / step) * step)


@dataclass(frozen=True, eq=False)
class ClusterStability:
    """Split-half agreement of the clusters and an estimate of the runs needed.

    Attributes
    ----------
    n_runs : int
        Runs of the result examined.
    clusters_a, clusters_b : ndarray of int64, shape (n_systems,)
        Clusters computed from each half of the runs.
    agree : bool
        Whether the two halves give the same partition.
    adjusted_rand : float
        Adjusted Rand index between the halves' partitions (1 = identical).
    boundary_agreement : float
        Share of the ``n - 1`` adjacent boundary decisions (in the full result's value
        order) on which the halves agree.
    range_agreement : float
        Share of systems whose rank range is identical in both halves.
    fragile : ndarray of int64
        Positions ``k`` (0-based, in value order) of boundary decisions between the
        ``k``-th and ``k + 1``-th system that rest on a range end within ``z`` standard
        errors of the cut.
    suggested_runs : int or None
        The fewest runs at which every fragile decision would hold at ``z`` standard
        errors as far as the data tell (the lower end of ``runs_interval``, two
        significant digits, at least twice the runs); the current number when nothing
        is fragile; None when even that is more than ``max_runs``, or when there is no
        estimate (``runs_unknown``).
    runs_interval : tuple of (int, int or None)
        The runs needed, from the fewest to the most the data allow (None: no upper
        bound, a range end may lie on the cut). The fewest is always more than
        ``n_runs`` when a decision is fragile: these runs did not settle it.
    runs_unknown : bool
        A fragile decision and no estimate of the runs needed: no upper bound and a
        lower one within twice the runs, so any number would only be the doubling.
    max_runs : int
        The most runs the platform accepts (suggestions never exceed it).
    reasons : tuple of str
        Codes of the failed parts (:data:`REASONS`); empty when stable.
    coverage, half_coverage : float
        Share of the runs the rank ranges keep (all runs; one half).
    z : float
        The standard-error margin used.
    note : str
        A one-paragraph human-readable summary, worded from ``reasons``.
    """

    n_runs: int
    clusters_a: IntArray
    clusters_b: IntArray
    agree: bool
    adjusted_rand: float
    boundary_agreement: float
    range_agreement: float
    fragile: IntArray
    suggested_runs: int | None
    z: float
    note: str
    runs_interval: tuple[int, int | None] = (0, 0)
    max_runs: int = MAX_RUNS
    reasons: tuple[str, ...] = ()
    coverage: float = 1.0
    half_coverage: float = 1.0
    runs_unknown: bool = False
    #: the confidence of the ranges checked, and the fewest runs that deliver it
    #: (:func:`min_runs_for`)
    confidence: float = 0.95
    min_runs: int = 4

    @property
    def stable(self) -> bool:
        """No part of the check failed (:attr:`reasons` is empty): the halves give the
        same clusters and no boundary decision is fragile."""
        return not self.reasons

    def as_dict(self) -> dict[str, object]:
        """JSON-friendly summary (for storing with a ranking run)."""
        return {
            "n_runs": self.n_runs,
            "stable": self.stable,
            "reasons": list(self.reasons),
            "agree": self.agree,
            "adjusted_rand": self.adjusted_rand,
            "boundary_agreement": self.boundary_agreement,
            "range_agreement": self.range_agreement,
            "fragile": self.fragile.tolist(),
            "suggested_runs": self.suggested_runs,
            "runs_interval": list(self.runs_interval),
            "max_runs": self.max_runs,
            "runs_unknown": self.runs_unknown,
            "coverage": self.coverage,
            "half_coverage": self.half_coverage,
            "z": self.z,
            "note": self.note,
            "confidence": self.confidence,
            "min_runs": self.min_runs,
        }


def adjusted_rand_index(labels_a: ArrayLike, labels_b: ArrayLike) -> float:
    """Adjusted Rand index of two partitions (Hubert & Arabie 1985); 1.0 if identical."""
    a = np.unique(np.asarray(labels_a), return_inverse=True)[1]
    b = np.unique(np.asarray(labels_b), return_inverse=True)[1]
    n = a.shape[0]
    if n < 2:
        return 1.0
    table = np.zeros((a.max() + 1, b.max() + 1))
    np.add.at(table, (a, b), 1)

    def pairs(x: NDArray[np.float64]) -> float:
        return float((x * (x - 1) / 2).sum())

    index = pairs(table)
    rows, cols = pairs(table.sum(axis=1)), pairs(table.sum(axis=0))
    expected = rows * cols / (n * (n - 1) / 2)
    maximum = (rows + cols) / 2
    if maximum == expected:
        return 1.0
    return (index - expected) / (maximum - expected)


def _boundaries(
    values: ArrayLike, lo: IntArray, hi: IntArray, order: IntArray
) -> NDArray[np.bool_]:
    """Boundary after each position of ``order`` (length n - 1), by the WMT14 rule."""
    lo_sorted = lo[order]
    below = np.minimum.accumulate(lo_sorted[::-1])[::-1]
    return hi[order][:-1] < below[1:]


def _runs_needed(share: float, cut: float, z: float) -> float:
    gap = abs(share - cut)
    if gap == 0:
        return math.inf
    return z * z * cut * (1 - cut) / (gap * gap)


def _runs_interval(share: float, cut: float, z: float, runs: int) -> tuple[float, float]:
    """The fewest and the most runs :func:`_runs_needed` gives for any share within
    ``z`` standard errors of the observed one (``share`` is itself an estimate from
    ``runs`` runs; half a run is added to its variance so that a share of 0 or 1 still
    has an error)."""
    se = math.sqrt((share * (1 - share) + 0.5 / runs) / runs)
    gap = abs(share - cut)
    far, near = gap + z * se, max(gap - z * se, 0.0)
    most = math.inf if near == 0 else z * z * cut * (1 - cut) / (near * near)
    return z * z * cut * (1 - cut) / (far * far), most


def cluster_stability(
    result: RankingResult,
    *,
    rng: np.random.Generator,
    z: float = 2.0,
    max_runs: int = MAX_RUNS,
) -> ClusterStability:
    """Check whether a result's clusters are settled and estimate the runs needed.

    Parameters
    ----------
    result : RankingResult
        A result with its per-run ranks (``run_ranks``), from any method.
    rng : numpy.random.Generator
        Splits the runs into halves (a permutation).
    z : float, default 2.0
        Standard errors a range end should keep from the trim cut (and the width, in
        standard errors of the observed shares, of the runs interval).
    max_runs : int, default MAX_RUNS
        The most runs the platform accepts: no suggestion exceeds it.

    Returns
    -------
    ClusterStability

    References
    ----------
    Hubert, L. and Arabie, P. (1985). Comparing partitions. Journal of Classification 2,
    193-218.
    """
    runs = result.n_runs
    n = result.n_systems
    ranks = result.run_ranks
    order = value_order(result.value)
    coverage = range_coverage(runs, result.confidence)[1]
    min_runs = min_runs_for(result.confidence)
    if n < 2:
        return ClusterStability(
            n_runs=runs,
            clusters_a=result.cluster.copy(),
            clusters_b=result.cluster.copy(),
            agree=True,
            adjusted_rand=1.0,
            boundary_agreement=1.0,
            range_agreement=1.0,
            fragile=np.empty(0, dtype=np.int64),
            suggested_runs=runs,
            z=z,
            note="One system: there are no clusters to judge.",
            runs_interval=(runs, runs),
            max_runs=max_runs,
            coverage=coverage,
            half_coverage=coverage,
            confidence=result.confidence,
            min_runs=min_runs,
        )
    if runs < min_runs:
        # Too few runs to deliver the asked confidence (or to split): the check cannot
        # pass, and no clusters are claimed (it passed before, "too few to judge").
        stored = {
            "reasons": ["too_few_runs"],
            "n_runs": runs,
            "confidence": result.confidence,
            "min_runs": min_runs,
        }
        low = _round_up(min_runs)
        return ClusterStability(
            n_runs=runs,
            clusters_a=result.cluster.copy(),
            clusters_b=result.cluster.copy(),
            agree=False,  # not compared: the split was not made
            adjusted_rand=0.0,
            boundary_agreement=0.0,
            range_agreement=0.0,
            fragile=np.empty(0, dtype=np.int64),
            suggested_runs=min(low, max_runs) if min_runs <= max_runs else None,
            z=z,
            note=f"Reason: {stability_reasons(stored)[0]}. The split-half check was not made.",
            runs_interval=(low, low),
            max_runs=max_runs,
            reasons=("too_few_runs",),
            coverage=coverage,
            half_coverage=coverage,
            confidence=result.confidence,
            min_runs=min_runs,
        )

    perm = rng.permutation(runs)
    halves = (perm[: runs // 2], perm[runs // 2 :])
    half_clusters = []
    half_ranges = []
    half_bounds = []
    for idx in halves:
        values = result.run_values[idx].mean(axis=0)
        lo, hi = rank_ranges(ranks[idx], result.confidence)
        half_clusters.append(clusters_from_ranges(values, lo, hi))
        half_ranges.append((lo, hi))
        half_bounds.append(_boundaries(values, lo, hi, order))
    ari = adjusted_rand_index(half_clusters[0], half_clusters[1])
    agree = ari == 1.0
    boundary_agreement = float(np.mean(half_bounds[0] == half_bounds[1]))
    range_agreement = float(
        np.mean((half_ranges[0][0] == half_ranges[1][0]) & (half_ranges[0][1] == half_ranges[1][1]))
    )

    # Runs estimate from the full result's range ends near the cut.
    alpha = trim_count(runs, result.confidence)
    cut = (alpha + 0.5) / runs
    lo, hi = result.rank_lo, result.rank_hi
    fragile: list[int] = []
    needed = 0.0
    needed_lo = needed_hi = 0.0
    for k in range(n - 1):
        rest = order[k + 1 :]
        j = int(rest[np.argmin(lo[rest])])
        i = int(order[k])
        margin = int(lo[j]) - int(hi[i])
        if margin == 1:
            # boundary: breaks if i's worst rank grows or j's best rank shrinks
            p_hi = float(np.mean(ranks[:, i] > hi[i]))
            p_lo = float(np.mean(ranks[:, j] < lo[j]))
        elif margin in (0, -1):
            # no boundary: one appears if i's worst rank shrinks and/or j's best grows
            p_hi = float(np.mean(ranks[:, i] >= hi[i]))
            p_lo = float(np.mean(ranks[:, j] <= lo[j]))
        else:
            continue
        # margin 1 or 0: one end moving flips the decision, so both must hold; margin -1
        # (ranges overlapping by one rank): both must move, so one holding is enough
        combine = min if margin == -1 else max
        need = combine(_runs_needed(p_hi, cut, z), _runs_needed(p_lo, cut, z))
        if need > runs:
            fragile.append(k)
            needed = max(needed, need)
            (few_hi, most_hi), (few_lo, most_lo) = (
                _runs_interval(p_hi, cut, z, runs),
                _runs_interval(p_lo, cut, z, runs),
            )
            needed_lo = max(needed_lo, combine(few_hi, few_lo))
            needed_hi = max(needed_hi, combine(most_hi, most_lo))
    interval: tuple[int, int | None]
    runs_unknown = False
    if not fragile:
        suggested: int | None = runs
        interval = (runs, runs)
    else:
        # These runs did not settle the fragile decisions: the fewest runs that may is
        # more than these, whatever the shares' uncertainty allows.
        low = max(_round_up(needed_lo), _round_up(runs + 1))
        high = None if math.isinf(needed_hi) else max(_round_up(needed_hi), low)
        interval = (low, high)
        # at least twice the runs: the shares' standard errors then shrink by sqrt(2)
        step = _round_up(max(needed_lo, 2 * runs))
        # No upper bound and a lower one within the doubling floor: the data give no
        # estimate at all, and a number (always twice the runs) would carry none.
        runs_unknown = high is None and needed_lo <= 2 * runs
        # None: no estimate, or the cap would not suffice (or allows no more runs)
        suggested = (
            None if runs_unknown or low > max_runs or max_runs <= runs else min(step, max_runs)
        )

    reasons = tuple(
        code
        for code, failed in (("halves_disagree", not agree), ("fragile_boundaries", fragile))
        if failed
    )
    kept, coverage = range_coverage(runs, result.confidence)
    half_kept, half_coverage = range_coverage(runs // 2, result.confidence)
    stored = {"reasons": list(reasons), "fragile": fragile, "z": z}
    n_decisions = n - 1
    if reasons:
        clauses = stability_reasons(stored)
        note = f"{'Reasons' if len(clauses) > 1 else 'Reason'}: {'; '.join(clauses)}. "
    else:
        note = (
            "Two random halves of the runs give the same clusters and no boundary "
            f"decision rests within {z:g} standard errors of the trim cut. "
        )
    agree_text = (
        "give the same clusters" if agree else f"give different clusters (adjusted Rand {ari:.2f})"
    )
    note += (
        f"The halves ({runs // 2:,} runs each, ranges keeping {half_kept:,} of {runs // 2:,}, "
        f"{half_coverage:.0%}) {agree_text} and agree on "
        f"{round(boundary_agreement * n_decisions)} of {n_decisions} boundary decisions "
        f"and on {round(range_agreement * n)} of {n} rank ranges. "
        f"The rank ranges keep {kept:,} of {runs:,} runs ({coverage:.0%}; "
        f"{result.confidence:.0%} asked). "
    )
    if fragile:
        low, high = interval
        if runs_unknown:
            note += (
                f"No estimate of the runs needed: a range end that decides a fragile "
                f"boundary lies within sampling error of the trim cut, and {runs:,} runs "
                "cannot tell whether more runs settle it; if it lies on the cut no number of "
                "runs does, and more judgements of the systems at that boundary, not more "
                "runs, are needed."
            )
        elif suggested is None:
            least = f" (at least {low:,})" if low > max_runs else ""
            note += (
                f"Settling the fragile boundaries would take more runs than the {max_runs:,} "
                f"this server accepts{least}: read those boundaries as uncertain."
            )
        elif high is None:
            note += (
                f"How many runs would settle them cannot be told from {runs:,} runs: "
                f"{low:,} at the fewest, with no upper bound (a range end within sampling "
                "error of the cut may lie on it, and then no number of runs settles it). "
                f"Suggested next: {suggested:,} runs, then look again."
            )
        elif high > max_runs:
            note += (
                f"They would settle at {low:,} to {high:,} runs, more than the {max_runs:,} "
                f"this server accepts at the upper end. Suggested next: {suggested:,} runs."
            )
        else:
            note += (
                f"They would settle at about {low:,} to {high:,} runs. Suggested: "
                f"{suggested:,} runs."
            )
    return ClusterStability(
        n_runs=runs,
        clusters_a=half_clusters[0],
        clusters_b=half_clusters[1],
        agree=agree,
        adjusted_rand=float(ari),
        boundary_agreement=boundary_agreement,
        range_agreement=range_agreement,
        fragile=np.asarray(fragile, dtype=np.int64),
        suggested_runs=suggested,
        z=z,
        note=note.strip(),
        runs_interval=interval,
        max_runs=max_runs,
        reasons=reasons,
        coverage=coverage,
        half_coverage=half_coverage,
        runs_unknown=runs_unknown,
        confidence=result.confidence,
        min_runs=min_runs,
    )
