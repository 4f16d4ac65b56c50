"""The result every ranking method returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._clusters import clusters_from_ranges, rank_ranges, ranks_per_run, value_order

__all__ = ["RankingResult", "summarise_runs"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class RankingResult:
    """Per-system values, rank ranges and clusters of one ranking.

    Attributes
    ----------
    method : str
        ``"wmt14"``, ``"bootstrap"``, ``"bradley_terry"`` or ``"expected_wins"``.
    value : ndarray of float64, shape (n_systems,)
        The system's score (method-specific: mean TrueSkill mu, Bradley-Terry strength,
        expected wins).
    spread : ndarray of float64, shape (n_systems,)
        Standard deviation of the per-run (or per-replicate) values.
    rank_lo, rank_hi : ndarray of int64, shape (n_systems,)
        The rank range (1 = best) left after trimming the extreme runs at ``confidence``.
    cluster : ndarray of int64, shape (n_systems,)
        Significance cluster, numbered from 1 in order of value.
    comparisons : ndarray of int64, shape (n_systems,)
        Number of pairwise comparisons each system took part in.
    n_comparisons : int
        Total number of comparisons.
    n_runs : int
        Number of runs (WMT14) or bootstrap replicates.
    confidence : float
        Confidence level of the rank ranges.
    params : dict
        The method's parameters as used (including defaults).
    run_values : ndarray of float64, shape (n_runs, n_systems)
        The value of every system in every run.
    run_ranks : ndarray of int64, shape (n_runs, n_systems)
        The rank of every system in every run (1 = best).
    """

    method: str
    value: FloatArray
    spread: FloatArray
    rank_lo: IntArray
    rank_hi: IntArray
    cluster: IntArray
    comparisons: IntArray
    n_comparisons: int
    n_runs: int
    confidence: float
    params: dict[str, Any] = field(default_factory=dict)
    run_values: FloatArray = field(default_factory=lambda: np.empty((0, 0)))
    run_ranks: IntArray = field(default_factory=lambda: np.empty((0, 0), dtype=np.int64))

    @property
    def n_systems(self) -> int:
        return int(self.value.shape[0])

    @property
    def order(self) -> IntArray:
        """System indices from the best value to the worst."""
        return value_order(self.value)

    @property
    def n_clusters(self) -> int:
        return int(self.cluster.max()) if self.cluster.size else 0


def summarise_runs(
    *,
    method: str,
    run_values: ArrayLike,
    confidence: float,
    comparisons: ArrayLike,
    n_comparisons: int,
    params: dict[str, Any],
    value: ArrayLike | None = None,
) -> RankingResult:
    """Build a :class:`RankingResult` from the per-run values.

    ``value`` defaults to the mean over runs (WMT14's TrueSkill score); the rank ranges
    come from the per-run ranks, the clusters from the ranges in order of ``value``.
    """
    runs = np.asarray(run_values, dtype=np.float64)
    val = runs.mean(axis=0) if value is None else np.asarray(value, dtype=np.float64)
    ranks = ranks_per_run(runs)
    lo, hi = rank_ranges(ranks, confidence)
    return RankingResult(
        method=method,
        value=val,
        spread=runs.std(axis=0),
        rank_lo=lo,
        rank_hi=hi,
        cluster=clusters_from_ranges(val, lo, hi),
        comparisons=np.asarray(comparisons, dtype=np.int64),
        n_comparisons=int(n_comparisons),
        n_runs=int(runs.shape[0]),
        confidence=float(confidence),
        params=dict(params),
        run_values=runs,
        run_ranks=ranks,
    )
