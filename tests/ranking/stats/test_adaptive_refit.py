"""``adaptive_refit``: the adaptive design's refit, Bradley-Terry with its normal
approximation on the judgements' pairwise counts (``benchmarks/simulate.py``'s refit)."""

from __future__ import annotations

import numpy as np

from ranking.stats import (
    ADAPTIVE_REFIT_CONFIDENCE,
    ADAPTIVE_REFIT_DRAWS,
    adaptive_refit,
    bt_normal,
    pair_counts,
)
from ranking.stats._clusters import trim_count
from ranking.stats._pairwise import judgements_to_comparisons


def _judgements(n_systems: int, tasks: int, rng: np.random.Generator, *, skip: int = -1):
    """Tasks of 3 distinct systems (never ``skip``), scored on a coarse scale (draws)."""
    quality = np.linspace(40, -40, n_systems)
    judgement, system, score = [], [], []
    pool = [s for s in range(n_systems) if s != skip]
    for j in range(tasks):
        shown = rng.choice(pool, 3, replace=False)
        judgement += [j] * 3
        system += shown.tolist()
        score += np.round((100 + quality[shown] + rng.normal(0, 30, 3)) / 20).tolist()
    return np.array(judgement), np.array(system), np.array(score, dtype=float)


def test_the_refit_is_bt_normal_on_the_pair_counts_with_the_generators_draws():
    judgement, system, score = _judgements(6, 200, np.random.default_rng(0))
    refit = adaptive_refit(
        n_systems=6,
        judgement=judgement,
        system=system,
        score=score,
        rng=np.random.default_rng([5, 7, 0]),
    )
    wins, draws = pair_counts(judgements_to_comparisons(judgement, system, score, n_systems=6))
    assert draws.sum() > 0  # the coarse scale ties
    normals = np.random.default_rng([5, 7, 0]).standard_normal((ADAPTIVE_REFIT_DRAWS, 6))
    expected = bt_normal(wins, draws, normals, confidence=ADAPTIVE_REFIT_CONFIDENCE)
    assert refit.ranked.tolist() == list(range(6)) and refit.result is not None
    for name in ("value", "spread", "rank_lo", "rank_hi", "cluster"):
        np.testing.assert_array_equal(getattr(refit.result, name), getattr(expected, name))
    assert refit.result.n_runs == 1000 and refit.result.confidence == 0.95
    # the ranges cover 95% of the draws (WMT14's 64 runs with 2 trimmed a side: 93.75%)
    assert 1 - 2 * trim_count(ADAPTIVE_REFIT_DRAWS, ADAPTIVE_REFIT_CONFIDENCE) / 1000 == 0.95


def test_a_system_without_comparisons_is_left_out_and_the_draws_do_not_move():
    """The normal numbers are drawn for every system, so a system not compared yet does
    not change the draws the others get."""
    judgement, system, score = _judgements(6, 200, np.random.default_rng(1), skip=4)
    refit = adaptive_refit(
        n_systems=6, judgement=judgement, system=system, score=score, rng=np.random.default_rng(9)
    )
    assert refit.ranked.tolist() == [0, 1, 2, 3, 5] and refit.result is not None
    keep = [0, 1, 2, 3, 5]
    wins, draws = pair_counts(judgements_to_comparisons(judgement, system, score, n_systems=6))
    normals = np.random.default_rng(9).standard_normal((1000, 6))[:, keep]
    expected = bt_normal(wins[np.ix_(keep, keep)], draws[np.ix_(keep, keep)], normals)
    np.testing.assert_array_equal(refit.result.cluster, expected.cluster)
    np.testing.assert_array_equal(refit.result.rank_hi, expected.rank_hi)


def test_merged_outputs_are_not_compared_and_one_system_is_no_ranking():
    # two systems sharing slot 0 (a merged output) were never seen apart
    refit = adaptive_refit(
        n_systems=3,
        judgement=np.array([0, 0, 0]),
        system=np.array([0, 1, 2]),
        score=np.array([50.0, 50.0, 20.0]),
        slot=np.array([0, 0, 1]),
        rng=np.random.default_rng(0),
    )
    assert refit.result is not None and refit.result.n_comparisons == 2
    alone = adaptive_refit(
        n_systems=3,
        judgement=np.array([0]),
        system=np.array([1]),
        score=np.array([50.0]),
        rng=np.random.default_rng(0),
    )
    assert alone.result is None and alone.ranked.size == 0
