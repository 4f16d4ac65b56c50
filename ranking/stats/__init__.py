"""Pure numerical code for ranking NLG systems from human judgements: the front door.

Imports numpy, scipy, numba (with its llvmlite) and threadpoolctl, and one pure rule of
annotations' core: ``_pairwise`` takes a judgement's scores as ranks from
``annotations.core.scoring`` (`scores_to_ranks`), which the import contracts allow
(ranking sits above annotations, and the pure cores' contract forbids ``ranking.stats``
only Django, DRF, Celery and the models and services). Never Django. Importing it costs
numpy alone (with the small threadpoolctl, and ``annotations.core.scoring``, which
imports numpy only): scipy is imported by the functions that use it and numba when the WMT14
method first runs (they would cost 0.3 s and 0.4 s at every start-up otherwise; see
``tests/ranking/stats/test_methods_lazy_imports.py``). The rest of the project uses what this
module exports and nothing else; the ``_``-prefixed modules behind it are private
(their tests import them directly):

- :func:`check_parameters` -- the one check of a ranking request (method, its
  parameters, runs, confidence), used by the web form, the API serializer, the ``rank``
  command and the services; it raises :class:`ParameterError`.
- :func:`compute` -- scores in (one entry per judgement and output), a
  :class:`ComputedRanking` out: per-system values, rank ranges, clusters
  (:class:`RankingResult`) and the split-half stability check of the clusters.
- :func:`compute_chunked`, or :func:`prepare_comparisons`, :func:`compute_chunk` (or
  :func:`compute_chunks`, several in one pass, each with its own numbers) and
  :func:`merge_chunks` apart (fan-out over Celery): a ranking cut into
  chunks of ``chunk_runs`` runs, chunk ``i`` drawing from
  ``SeedSequence(seed).spawn(n)[i]``, merged into the same result whatever computed
  the chunks and in what order (``_chunks``).
- :data:`METHODS` and :func:`method_parameters` -- the method names and each method's
  parameters with their defaults.
- :func:`scores_to_ranks` and :func:`wilson_interval` -- the two helpers other code
  shares: a judgement's scores as ranks, and a proportion's confidence interval.
- :func:`comparisons_needed`, :func:`pair_share`, :func:`judgements_for` and
  :func:`pilot_power` -- power analysis: the comparisons and judgements that
  separate two systems at a confidence level with a given power (``_power``).
- :func:`fit_simulator`, :class:`Simulator`, :func:`pair_shares` -- a generative
  simulator of crowd judgements fitted to a campaign's RankME scores, answering any task
  on a RankME, slider or Likert scale (``_simulate``); :func:`choose_batch`'s ``rule``
  (:data:`ADAPTIVE_RULES`) and :func:`overlap_weights` -- adaptive task design;
  :func:`adaptive_refit` -- its refit: :func:`bt_normal` (Bradley-Terry with rank ranges
  from its normal approximation, :data:`ADAPTIVE_REFIT_DRAWS` draws at
  :data:`ADAPTIVE_REFIT_CONFIDENCE`) on :func:`pair_counts` (wins and draws per pair),
  the refit ``benchmarks/simulate.py`` validated the stop rule with.
- :func:`mean_intervals` -- mean ratings with Student t intervals from counts, sums and
  sums of squares (``_means``; the MTG-style table: mean rating per criterion, system
  and language).

Methods: ``wmt14`` (TrueSkill with WMT14 active sampling, as in the E2E NLG
Challenge), ``bootstrap`` (TrueSkill over resampled judgements), ``bradley_terry`` and
``expected_wins`` (with bootstrap ranges). Every stochastic function takes an explicit
``rng: numpy.random.Generator``; the same generator gives bit-for-bit the same result.

Module map (private): ``_pairwise`` (judgements to comparisons), ``_trueskill`` (the
TrueSkill update, batched), ``_wmt14`` (the WMT14 procedure; its runs compiled per run,
bit for bit the same, in ``_wmt14_kernel``: numba, cached on disk, warmed by ``make
install``; the per-run state both engines share in ``_wmt14_tasks``), ``_bootstrap``,
``_bradley_terry`` (with ``bt_normal``, the adaptive refit), ``_expected_wins`` (the
methods; the last two share ``_resample``'s bootstrap skeleton, which draws replicates as multinomial weights of the
distinct judgement outcomes: memory and time grow with the systems, not the
judgements), ``_result`` and ``_clusters`` (rank ranges and clusters), ``_stability``,
``_proportions``, ``_methods`` (names, parameters, the check), ``_compute``, ``_chunks``
(a ranking cut into chunks), ``_power`` (power analysis), ``_means`` (mean ratings)
and ``_adaptive`` (the next batch of an adaptive design: :func:`choose_batch`, and
its refit: :func:`adaptive_refit`).
"""

from __future__ import annotations

from ._adaptive import REFIT_CONFIDENCE as ADAPTIVE_REFIT_CONFIDENCE
from ._adaptive import REFIT_DRAWS as ADAPTIVE_REFIT_DRAWS
from ._adaptive import RULES as ADAPTIVE_RULES
from ._adaptive import AdaptiveBatch as AdaptiveBatch
from ._adaptive import AdaptiveRefit, adaptive_refit, overlap_weights
from ._adaptive import choose_batch as choose_batch
from ._bradley_terry import BT_NORMAL_METHOD, Separation, bt_normal, separation
from ._chunks import (
    DEFAULT_CHUNK_RUNS,
    GROUP_MAX_CHUNKS,
    ChunkResult,
    chunk_groups,
    chunk_runs_for,
    chunk_sizes,
    chunks_side_by_side,
    chunks_sized_by_comparisons,
    compute_chunk,
    compute_chunked,
    compute_chunks,
    merge_chunks,
)
from ._compute import (
    DEFAULT_BATCH_RUNS,
    ComputedRanking,
    Evidence,
    compute,
    prepare_comparisons,
    system_comparisons,
    system_evidence,
)
from ._means import MeanIntervals, mean_intervals
from ._methods import METHODS, ParameterError, check_parameters, method_parameters
from ._pairwise import Comparisons as Comparisons
from ._pairwise import pair_counts, scores_to_ranks
from ._power import (
    SIMULATED_RATIOS,
    PairPower,
    comparisons_needed,
    judgements_for,
    pair_share,
    pilot_power,
)
from ._proportions import wilson_interval
from ._result import RankingResult
from ._simulate import SCALES, Simulator, fit_simulator, pair_shares
from ._stability import MAX_RUNS, min_runs_for, range_coverage, stability_reasons

__all__ = [
    "ADAPTIVE_REFIT_CONFIDENCE",
    "ADAPTIVE_REFIT_DRAWS",
    "ADAPTIVE_RULES",
    "BT_NORMAL_METHOD",
    "DEFAULT_BATCH_RUNS",
    "DEFAULT_CHUNK_RUNS",
    "GROUP_MAX_CHUNKS",
    "MAX_RUNS",
    "METHODS",
    "SCALES",
    "SIMULATED_RATIOS",
    "AdaptiveRefit",
    "ChunkResult",
    "Comparisons",
    "ComputedRanking",
    "Evidence",
    "MeanIntervals",
    "PairPower",
    "ParameterError",
    "RankingResult",
    "Separation",
    "Simulator",
    "adaptive_refit",
    "bt_normal",
    "check_parameters",
    "chunk_groups",
    "chunk_runs_for",
    "chunk_sizes",
    "chunks_side_by_side",
    "chunks_sized_by_comparisons",
    "comparisons_needed",
    "compute",
    "compute_chunk",
    "compute_chunked",
    "compute_chunks",
    "fit_simulator",
    "judgements_for",
    "mean_intervals",
    "merge_chunks",
    "method_parameters",
    "min_runs_for",
    "overlap_weights",
    "pair_counts",
    "pair_share",
    "pair_shares",
    "pilot_power",
    "prepare_comparisons",
    "range_coverage",
    "scores_to_ranks",
    "separation",
    "stability_reasons",
    "system_comparisons",
    "system_evidence",
    "wilson_interval",
]
