"""Pure numerical code for ranking NLG systems from human judgements.

Imports numpy, scipy and trueskill only (never Django). Inputs are integer-indexed
arrays (:class:`Comparisons`); outputs are frozen dataclasses (:class:`RankingResult`).
Every stochastic function takes an explicit ``rng: numpy.random.Generator``.

Methods: :func:`wmt14` (TrueSkill with WMT14 active sampling, as in the E2E NLG
Challenge), :func:`bootstrap` (TrueSkill over resampled judgements),
:func:`bradley_terry` and :func:`expected_wins` (with bootstrap ranges); :func:`rank`
dispatches by name, :func:`cluster_stability` checks whether the clusters are settled.
"""

from __future__ import annotations

from .bootstrap import bootstrap
from .bradley_terry import bradley_terry, bradley_terry_fit
from .clusters import clusters_from_ranges, rank_ranges, ranks_per_run, trim_count, value_order
from .expected_wins import expected_wins, expected_wins_scores
from .methods import METHODS, method_parameters, rank
from .pairwise import Comparisons, PairIndex, judgements_to_comparisons, pair_index, scores_to_ranks
from .proportions import wilson_interval
from .resample import judgement_multiplicities, pair_counts
from .result import RankingResult, summarise_runs
from .stability import ClusterStability, adjusted_rand_index, cluster_stability
from .trueskill import (
    BatchUpdater,
    TrueSkillParams,
    draw_margin,
    normal_cdf,
    normal_pdf,
    normal_ppf,
    rate_1vs1,
    vw_draw,
    vw_win,
)
from .wmt14 import wmt14, wmt14_many, wmt14_reference

__all__ = [
    "METHODS",
    "BatchUpdater",
    "ClusterStability",
    "Comparisons",
    "PairIndex",
    "RankingResult",
    "TrueSkillParams",
    "adjusted_rand_index",
    "bootstrap",
    "bradley_terry",
    "bradley_terry_fit",
    "cluster_stability",
    "clusters_from_ranges",
    "draw_margin",
    "expected_wins",
    "expected_wins_scores",
    "judgement_multiplicities",
    "judgements_to_comparisons",
    "method_parameters",
    "normal_cdf",
    "normal_pdf",
    "normal_ppf",
    "pair_counts",
    "pair_index",
    "rank",
    "rank_ranges",
    "ranks_per_run",
    "rate_1vs1",
    "scores_to_ranks",
    "summarise_runs",
    "trim_count",
    "value_order",
    "vw_draw",
    "vw_win",
    "wilson_interval",
    "wmt14",
    "wmt14_many",
    "wmt14_reference",
]
