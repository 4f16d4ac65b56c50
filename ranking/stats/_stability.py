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

References
----------
Hubert, L. and Arabie, P. (1985). Comparing partitions. Journal of Classification 2,
193-218 (adjusted Rand index).
Koehn, P. (2004). Statistical significance tests for machine translation evaluation.
EMNLP 2004, 388-395.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._clusters import clusters_from_ranges, rank_ranges, trim_count, value_order
from ._result import RankingResult

__all__ = ["ClusterStability", "adjusted_rand_index", "cluster_stability"]

IntArray = NDArray[np.int64]

#: runs suggestions are capped here (a boundary exactly at the cut never settles)
MAX_RUNS = 100_000


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
    suggested_runs : int
        Runs at which every fragile decision would hold at ``z`` standard errors (the
        current number when nothing is fragile; capped at ``MAX_RUNS``).
    z : float
        The standard-error margin used.
    note : str
        A one-paragraph human-readable summary.
    """

    n_runs: int
    clusters_a: IntArray
    clusters_b: IntArray
    agree: bool
    adjusted_rand: float
    boundary_agreement: float
    range_agreement: float
    fragile: IntArray
    suggested_runs: int
    z: float
    note: str

    @property
    def stable(self) -> bool:
        """The halves give the same clusters and no boundary decision is fragile."""
        return bool(self.agree) and self.fragile.size == 0

    def as_dict(self) -> dict[str, object]:
        """JSON-friendly summary (for storing with a ranking run)."""
        return {
            "n_runs": self.n_runs,
            "stable": self.stable,
            "agree": self.agree,
            "adjusted_rand": self.adjusted_rand,
            "boundary_agreement": self.boundary_agreement,
            "range_agreement": self.range_agreement,
            "fragile": self.fragile.tolist(),
            "suggested_runs": self.suggested_runs,
            "z": self.z,
            "note": self.note,
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


def cluster_stability(
    result: RankingResult, *, rng: np.random.Generator, z: float = 2.0
) -> ClusterStability:
    """Check whether a result's clusters are settled and estimate the runs needed.

    Parameters
    ----------
    result : RankingResult
        A result with its per-run ranks (``run_ranks``), from any method.
    rng : numpy.random.Generator
        Splits the runs into halves (a permutation).
    z : float, default 2.0
        Standard errors a range end should keep from the trim cut.

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
    if runs < 4 or n < 2:
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
            note="Too few runs or systems to judge the stability of the clusters.",
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
        need_hi, need_lo = _runs_needed(p_hi, cut, z), _runs_needed(p_lo, cut, z)
        # margin 1 or 0: one end moving flips the decision, so both must hold; margin -1
        # (ranges overlapping by one rank): both must move, so one holding is enough
        need = min(need_hi, need_lo) if margin == -1 else max(need_hi, need_lo)
        if need > runs:
            fragile.append(k)
            needed = max(needed, need)
    if needed == 0:
        suggested = runs
    elif math.isinf(needed) or needed > MAX_RUNS:
        suggested = MAX_RUNS
    else:
        suggested = int(math.ceil(needed / 100.0) * 100)

    n_decisions = n - 1
    agree_text = (
        "give the same clusters" if agree else f"give different clusters (adjusted Rand {ari:.2f})"
    )
    note = (
        f"Two random halves of the {runs} runs {agree_text}; they agree on "
        f"{round(boundary_agreement * n_decisions)} of {n_decisions} boundary decisions "
        f"and on {round(range_agreement * n)} of {n} rank ranges. "
    )
    if fragile and suggested >= MAX_RUNS:
        note += (
            f"{len(fragile)} boundary decision(s) rest on rank-range ends within {z:g} "
            f"standard errors of the {result.confidence:.0%} cut, at least one practically "
            "on it: no feasible number of runs settles it, so read those boundaries as "
            "uncertain."
        )
    elif fragile:
        note += (
            f"{len(fragile)} boundary decision(s) rest on rank-range ends within {z:g} "
            f"standard errors of the {result.confidence:.0%} cut; about {suggested:,} runs "
            "would settle them."
        )
    else:
        note += f"No boundary decision rests within {z:g} standard errors of the cut."
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
        note=note,
    )
