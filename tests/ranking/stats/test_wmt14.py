"""TrueSkill the WMT14 way: golden cases, the reference loop as oracle, properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from ranking.stats._pairwise import Comparisons, judgements_to_comparisons
from ranking.stats._wmt14 import wmt14, wmt14_many

from .reference import wmt14_reference


def simulate(
    strengths, n_judgements: int, *, k: int = 3, noise: float = 20.0, seed: int = 0
) -> Comparisons:
    """RankME-like judgements: k random systems, scores 100 + strength + noise, rounded."""
    rng = np.random.default_rng(seed)
    strengths = np.asarray(strengths, dtype=float)
    n = strengths.shape[0]
    judgement, system, score = [], [], []
    for j in range(n_judgements):
        chosen = rng.choice(n, size=min(k, n), replace=False)
        raw = 100 + strengths[chosen] + rng.normal(0, noise, chosen.shape[0])
        judgement += [j] * chosen.shape[0]
        system += chosen.tolist()
        score += np.round(raw / 10).tolist()  # coarse: plenty of ties
    return judgements_to_comparisons(judgement, system, score, n_systems=n)


def dominance(n_judgements: int = 30) -> Comparisons:
    """System 0 always beats 1, which always beats 2."""
    j = np.repeat(np.arange(n_judgements), 3)
    s = np.tile([0, 1, 2], n_judgements)
    return judgements_to_comparisons(j, s, np.tile([100.0, 50.0, 10.0], n_judgements))


def test_dominant_winner_three_clusters():
    result = wmt14(dominance(), rng=np.random.default_rng(1), runs=40)
    assert result.value[0] > result.value[1] > result.value[2]
    assert_array_equal(result.rank_lo, [1, 2, 3])
    assert_array_equal(result.rank_hi, [1, 2, 3])
    assert_array_equal(result.cluster, [1, 2, 3])
    assert_array_equal(result.comparisons, [60, 60, 60])
    assert result.n_runs == 40 and result.run_ranks.shape == (40, 3)
    assert result.params["steps"] == 91 and result.params["beta"] == pytest.approx(0.5 * 91 / 40)


def test_only_draws_leave_everyone_at_the_prior():
    j = np.repeat(np.arange(10), 3)
    c = judgements_to_comparisons(j, np.tile([0, 1, 2], 10), np.full(30, 100.0))
    result = wmt14(c, rng=np.random.default_rng(0), runs=10)
    assert_array_equal(result.value, [0.0, 0.0, 0.0])  # a draw at t = 0 moves nobody
    assert_array_equal(result.rank_lo, [1, 1, 1])
    assert_array_equal(result.cluster, [1, 1, 1])


@pytest.mark.parametrize(
    "params",
    [{}, {"tau": 0.05, "draw_probability": 0.1}, {"beta": 0.3, "sigma0": 1.0, "steps": 400}],
)
def test_vectorised_runs_equal_the_reference_loop(params):
    """Same random streams, same runs: the reference consumes numbers in the same order."""
    c = simulate([30, 20, 10, 0, -10, -25], 120, seed=4)
    fast = wmt14(c, rng=np.random.default_rng(11), runs=3, **params)
    slow = wmt14_reference(c, rng=np.random.default_rng(11), runs=3, **params)
    assert_allclose(fast.run_values, slow.run_values, rtol=0, atol=1e-12)
    assert_array_equal(fast.run_ranks, slow.run_ranks)
    assert fast.params == slow.params


def test_missing_pairs_are_skipped_like_the_reference():
    # systems 0 and 3 are never compared with each other
    c = simulate([10, 5, 0, -5], 200, k=2, seed=2)
    keep = ~(((c.winners == 0) & (c.losers == 3)) | ((c.winners == 3) & (c.losers == 0)))
    c = c.subset(keep)
    fast = wmt14(c, rng=np.random.default_rng(5), runs=2)
    slow = wmt14_reference(c, rng=np.random.default_rng(5), runs=2)
    assert_allclose(fast.run_values, slow.run_values, rtol=0, atol=1e-12)


def test_vectorised_and_reference_agree_in_distribution():
    c = simulate([20, 10, 0, -10], 80, seed=8)
    fast = wmt14(c, rng=np.random.default_rng(1), runs=200)
    slow = wmt14_reference(c, rng=np.random.default_rng(2), runs=30)
    se = np.sqrt(fast.spread**2 / 200 + slow.spread**2 / 30)
    assert np.all(np.abs(fast.value - slow.value) < 4 * se + 1e-12)


def test_same_seed_same_result_other_seed_other_result():
    c = simulate([5, 0, -5], 60, seed=3)
    a = wmt14(c, rng=np.random.default_rng(42), runs=20)
    b = wmt14(c, rng=np.random.default_rng(42), runs=20)
    other = wmt14(c, rng=np.random.default_rng(43), runs=20)
    assert_array_equal(a.run_values, b.run_values)
    assert not np.array_equal(a.run_values, other.run_values)


def test_block_size_does_not_change_the_result():
    c = simulate([5, 0, -5], 60, seed=3)
    a = wmt14(c, rng=np.random.default_rng(42), runs=5, block=7)
    b = wmt14(c, rng=np.random.default_rng(42), runs=5)
    assert_array_equal(a.run_values, b.run_values)


def test_progress_is_reported():
    seen: list[float] = []
    wmt14(dominance(), rng=np.random.default_rng(0), runs=3, block=25, progress=seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen) and len(seen) == 4


def test_system_without_comparisons_is_rejected():
    c = judgements_to_comparisons([0, 0], [0, 1], [1.0, 2.0], n_systems=3)
    with pytest.raises(ValueError, match="without comparisons"):
        wmt14(c, rng=np.random.default_rng(0), runs=2)


@settings(max_examples=8, deadline=None)
@given(
    gap=st.floats(150, 300),
    seed=st.integers(0, 10_000),
    size=st.integers(60, 120),
)
def test_more_data_never_merges_a_planted_large_gap(gap, seed, size):
    strengths = [gap, gap - 5, 0, -5]
    small = simulate(strengths, size, seed=seed, noise=15)
    large = simulate(strengths, 3 * size, seed=seed + 1, noise=15)
    for c in (small, large):
        result = wmt14(c, rng=np.random.default_rng(seed), runs=30)
        top = set(result.cluster[[0, 1]].tolist())
        bottom = set(result.cluster[[2, 3]].tolist())
        assert max(top) < min(bottom)


def test_many_sets_side_by_side_equal_their_own_runs():
    """Different sizes, systems, steps and a missing pair: each set as if ranked alone."""
    a = simulate([30, 20, 10, 0, -10, -25], 120, seed=4)
    b = simulate([10, 5, 0, -5], 200, k=2, seed=2)
    keep = ~(((b.winners == 0) & (b.losers == 3)) | ((b.winners == 3) & (b.losers == 0)))
    b = b.subset(keep)
    c = dominance(20)
    tau, draw = 0.05, 0.1
    many = wmt14_many(
        [a, b, c],
        rngs=[np.random.default_rng(s) for s in (11, 5, 3)],
        runs=3,
        tau=tau,
        draw_probability=draw,
    )
    for got, comparisons, seed in zip(many, [a, b, c], (11, 5, 3), strict=True):
        rng = np.random.default_rng(seed)
        alone = wmt14(comparisons, rng=rng, runs=3, tau=tau, draw_probability=draw)
        rng = np.random.default_rng(seed)
        slow = wmt14_reference(comparisons, rng=rng, runs=3, tau=tau, draw_probability=draw)
        assert_allclose(got.run_values, alone.run_values, rtol=0, atol=1e-13)
        assert_allclose(got.run_values, slow.run_values, rtol=0, atol=1e-12)
        assert_array_equal(got.run_ranks, slow.run_ranks)
        assert got.params == slow.params


def test_many_complete_sets_of_different_sizes_equal_the_reference():
    """Padding systems (no missing pairs anywhere, so a's own weight is zeroed directly)."""
    sets = [simulate([30, 20, 10, 0, -10, -25], 120, seed=4), dominance(25)]
    many = wmt14_many(sets, rngs=[np.random.default_rng(7), np.random.default_rng(8)], runs=4)
    for got, comparisons, seed in zip(many, sets, (7, 8), strict=True):
        slow = wmt14_reference(comparisons, rng=np.random.default_rng(seed), runs=4)
        assert_allclose(got.run_values, slow.run_values, rtol=0, atol=1e-12)


def test_many_reports_progress_over_all_sets():
    seen: list[float] = []
    wmt14_many(
        [dominance(10), dominance(30)],
        rngs=[np.random.default_rng(0), np.random.default_rng(1)],
        runs=2,
        block=16,
        progress=seen.append,
    )
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 2


def test_many_needs_one_generator_per_set():
    with pytest.raises(ValueError, match="one generator per"):
        wmt14_many([dominance()], rngs=[])


def test_more_than_255_systems_take_the_wide_path():
    """Counts and argmax keys above one byte: the generic reductions are used."""
    c = simulate(np.linspace(50, -50, 260), 600, k=5, seed=9)
    fast = wmt14(c, rng=np.random.default_rng(2), runs=2, steps=300)
    slow = wmt14_reference(c, rng=np.random.default_rng(2), runs=2, steps=300)
    assert_allclose(fast.run_values, slow.run_values, rtol=0, atol=1e-12)
