"""Per-run ranks, trimmed rank ranges and significance clusters (WMT14 / E2E rule).

References
----------
Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations for
human evaluation of machine translation. WMT 2014, 1-11 (``eval/cluster.py``).
Bojar, O. et al. (2014). Findings of the 2014 Workshop on Statistical Machine Translation.
WMT 2014, 12-58, section 3.3.
Dušek, O., Novikova, J. and Rieser, V. (2020). Evaluating the state-of-the-art of
End-to-End Natural Language Generation: The E2E NLG Challenge. Computer Speech & Language
59, 123-156, Table 11.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "clusters_from_ranges",
    "rank_ranges",
    "ranks_per_run",
    "trim_count",
    "value_order",
]

IntArray = NDArray[np.int64]


#: values of one run this close (relative to the run's largest absolute value, at
#: least 1) are a tie: far below any difference a ranking method resolves, far above
#: floating-point noise
TIE_RTOL = 1e-9


def ranks_per_run(run_values: ArrayLike, rtol: float = TIE_RTOL) -> IntArray:
    """Rank the systems within each run: rank 1 has the highest value.

    Equal values share the best of their ranks ("min" ranking), so ties never push a
    system's range outward; with continuous values (TrueSkill means) this is the
    ordinal rank WMT's ``cluster.py`` uses. Values count as equal when they differ by
    at most ``rtol`` times the row's largest absolute value (at least 1): two systems
    with identical data get values that differ only by floating-point noise (a
    Bradley-Terry fit, 1e-16), and that noise must not break their tie differently in
    each run. Neighbours in the sorted row are compared, so a chain of such
    differences is one tie.

    Parameters
    ----------
    run_values : array_like, shape (runs, n_systems)

    Returns
    -------
    ndarray of int64, shape (runs, n_systems)
    """
    values = np.asarray(run_values, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError("run_values must have shape (runs, n_systems)")
    # competition ("min") ranks of -values per row, as scipy.stats.rankdata(method="min")
    # gives them (scipy.stats is not imported: it costs a second at every start-up)
    keyed = -values
    order = np.argsort(keyed, axis=1, kind="stable")
    ordered = np.take_along_axis(keyed, order, axis=1)
    starts = np.ones(ordered.shape, dtype=np.bool_)
    if ordered.shape[1]:
        finite = np.where(np.isfinite(ordered), np.abs(ordered), 0.0)
        scale = np.maximum(finite.max(axis=1, keepdims=True), 1.0)
        # NaN differences compare False, as != did for NaN neighbours: kept apart
        starts[:, 1:] = ~(ordered[:, 1:] - ordered[:, :-1] <= rtol * scale)
    position = np.broadcast_to(np.arange(ordered.shape[1], dtype=np.int64), ordered.shape)
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=1) + 1
    ranks = np.empty(ordered.shape, dtype=np.int64)
    np.put_along_axis(ranks, order, first, axis=1)
    return ranks


def trim_count(n_runs: int, confidence: float) -> int:
    """How many runs to drop at each end: ``ceil((R - R * confidence) / 2)``.

    Computed in floating point exactly as WMT's ``cluster.py`` (so 200 runs at 0.95 drop
    5 at each end); capped so that at least one run remains.
    """
    if not 0 < confidence <= 1:
        raise ValueError("confidence must lie in (0, 1]")
    alpha = math.ceil((n_runs - (n_runs * 1.0 * confidence)) / 2.0)
    return max(0, min(alpha, (n_runs - 1) // 2))


def rank_ranges(run_ranks: ArrayLike, confidence: float = 0.95) -> tuple[IntArray, IntArray]:
    """The rank range of each system: its per-run ranks with the extremes trimmed.

    Sort each system's ranks over the runs, drop :func:`trim_count` of them at each end,
    and report the best and worst rank left.

    Parameters
    ----------
    run_ranks : array_like of int, shape (runs, n_systems)
    confidence : float, default 0.95

    Returns
    -------
    rank_lo, rank_hi : ndarray of int64, shape (n_systems,)
        Best (smallest) and worst rank of the range, 1-based.
    """
    ranks = np.sort(np.asarray(run_ranks, dtype=np.int64), axis=0)
    n_runs = ranks.shape[0]
    if n_runs == 0:
        raise ValueError("need at least one run")
    alpha = trim_count(n_runs, confidence)
    return ranks[alpha].copy(), ranks[n_runs - 1 - alpha].copy()


def value_order(values: ArrayLike) -> IntArray:
    """System indices from the highest value to the lowest (ties by index)."""
    vals = np.asarray(values, dtype=np.float64)
    return np.lexsort((np.arange(vals.shape[0]), -vals)).astype(np.int64)


def clusters_from_ranges(values: ArrayLike, rank_lo: ArrayLike, rank_hi: ArrayLike) -> IntArray:
    """Cluster numbers (1 = best) from values and rank ranges, by the WMT14 rule.

    Systems are taken in order of decreasing value; a new cluster starts after a system
    whose worst rank is better (smaller) than the best rank of every system below it.
    Clusters are therefore contiguous runs of the value order and partition the systems.

    Parameters
    ----------
    values : array_like of float, shape (n_systems,)
    rank_lo, rank_hi : array_like of int, shape (n_systems,)

    Returns
    -------
    ndarray of int64, shape (n_systems,)
        The cluster of each system (in system order), numbered from 1.
    """
    lo = np.asarray(rank_lo, dtype=np.int64)
    hi = np.asarray(rank_hi, dtype=np.int64)
    order = value_order(values)
    n = order.shape[0]
    clusters = np.empty(n, dtype=np.int64)
    if n == 0:
        return clusters
    lo_sorted = lo[order]
    # best rank of every system below position i: suffix minimum
    below = np.minimum.accumulate(lo_sorted[::-1])[::-1]
    boundary = np.zeros(n, dtype=np.int64)
    boundary[1:] = hi[order][:-1] < below[1:]
    clusters[order] = 1 + np.cumsum(boundary)
    return clusters
