"""What the ranking services call: validate parameters, compute a ranking from scores.

Kept free of Django: the selector passes the score arrays, the service stores the
returned values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .methods import check_parameter_values, rank
from .pairwise import judgements_to_comparisons
from .result import RankingResult
from .stability import cluster_stability

__all__ = ["ComputedRanking", "check_parameters", "compute"]


@dataclass(frozen=True, eq=False)
class ComputedRanking:
    """A ranking ready to store: per-system arrays, totals and the stability check."""

    result: RankingResult
    stability: dict[str, object]

    @property
    def value(self) -> NDArray[np.float64]:
        return self.result.value

    @property
    def spread(self) -> NDArray[np.float64]:
        return self.result.spread

    @property
    def rank_lo(self) -> NDArray[np.int64]:
        return self.result.rank_lo

    @property
    def rank_hi(self) -> NDArray[np.int64]:
        return self.result.rank_hi

    @property
    def cluster(self) -> NDArray[np.int64]:
        return self.result.cluster

    @property
    def comparisons(self) -> NDArray[np.int64]:
        return self.result.comparisons

    @property
    def n_comparisons(self) -> int:
        return self.result.n_comparisons


def check_parameters(method: str, parameters: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` for an unknown method, parameter name or value type."""
    check_parameter_values(method, parameters)


def compute(
    *,
    method: str,
    n_systems: int,
    judgement: ArrayLike,
    system: ArrayLike,
    score: ArrayLike,
    slot: ArrayLike | None = None,
    runs: int = 200,
    confidence: float = 0.95,
    parameters: Mapping[str, Any] | None = None,
    rng: np.random.Generator,
    progress: Callable[[float], None] | None = None,
) -> ComputedRanking:
    """Rank systems from raw scores (one entry per judgement and output).

    The scores become pairwise comparisons (:func:`judgements_to_comparisons`; entries
    sharing a judgement's slot are one merged output), the method runs with ``rng``, and
    the clusters' stability is checked with a generator spawned from ``rng`` after the
    method is done, so the method's numbers do not depend on the check.
    """
    params = dict(parameters or {})
    check_parameters(method, params)
    comparisons = judgements_to_comparisons(
        judgement, system, score, n_systems=n_systems, slot=slot
    )
    result = rank(
        method,
        comparisons,
        rng=rng,
        runs=runs,
        confidence=confidence,
        progress=progress,
        **params,
    )
    (check_rng,) = rng.spawn(1)
    stability = cluster_stability(result, rng=check_rng)
    return ComputedRanking(result=result, stability=stability.as_dict())
