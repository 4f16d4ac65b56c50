"""Resampling judgements (ranking/stats/_resample.py): pair counts, judgement patterns,
the pattern bootstrap."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from ranking.stats._bradley_terry import bradley_terry_fit
from ranking.stats._expected_wins import expected_wins_scores
from ranking.stats._methods import rank
from ranking.stats._pairwise import Comparisons, judgements_to_comparisons
from ranking.stats._resample import judgement_multiplicities, judgement_patterns, pair_counts

from .test_wmt14 import simulate


def test_pair_counts_and_multiplicities():
    c = judgements_to_comparisons([0, 0, 1, 1], [0, 1, 0, 1], [2.0, 1.0, 1.0, 1.0])
    wins, draws = pair_counts(c)
    assert_array_equal(wins[0], [[0, 1], [0, 0]])
    assert_array_equal(draws[0], [[0, 1], [1, 0]])
    wins, draws = pair_counts(c, np.array([[2, 0], [0, 3]]))
    assert_array_equal(wins[:, 0, 1], [2, 0])
    assert_array_equal(draws[:, 0, 1], [0, 3])
    mult = judgement_multiplicities(50, rng=np.random.default_rng(0), runs=7)
    assert mult.shape == (7, 50) and np.all(mult.sum(axis=1) == 50)


def _arena(n_systems: int, n: int, seed: int) -> Comparisons:
    """One comparison per judgement (two outputs), some draws."""
    rng = np.random.default_rng(seed)
    pairs = np.array([rng.choice(n_systems, 2, replace=False) for _ in range(n)])
    scores = rng.integers(0, 3, (n, 2)).astype(float)
    return judgements_to_comparisons(
        np.repeat(np.arange(n), 2), pairs.reshape(-1), scores.reshape(-1), n_systems=n_systems
    )


@pytest.mark.parametrize("data", ["rankme", "arena", "empty_judgements"])
def test_judgement_patterns_give_back_the_counts(data):
    if data == "rankme":
        c = simulate([10, 0, -10, 5, 3], 80, k=4, seed=3)
    elif data == "arena":
        c = _arena(6, 300, seed=4)
    else:  # a judgement with one output compares nothing
        c = judgements_to_comparisons([0, 0, 1, 2, 2], [0, 1, 2, 1, 2], [3.0, 1.0, 2.0, 2.0, 2.0])
    patterns = judgement_patterns(c)
    assert patterns.n_judgements == c.n_judgements
    assert patterns.counts.size <= c.n_judgements
    wins, draws = pair_counts(c)
    p_wins, p_draws = patterns.pair_counts(patterns.counts[None].astype(float))
    assert_array_equal(p_wins, wins)
    assert_array_equal(p_draws, draws)
    if data == "arena":  # at most one pattern per outcome of a pair
        assert patterns.counts.size <= 2 * 6 * 5


def test_pattern_bootstrap_has_the_judgement_bootstrap_distribution():
    """Multinomial over patterns = judgements drawn one by one: same mean and spread."""
    c = simulate([10, 0, -10, 5], 60, k=3, seed=5)
    runs = 3000
    patterns = judgement_patterns(c)
    rng = np.random.default_rng(0)
    weights = np.array(
        [
            s.multinomial(patterns.n_judgements, patterns.counts / patterns.n_judgements)
            for s in rng.spawn(runs)
        ],
        dtype=float,
    )
    new_wins, _ = patterns.pair_counts(weights)
    mult = judgement_multiplicities(c.n_judgements, rng=np.random.default_rng(1), runs=runs)
    old_wins, _ = pair_counts(c, mult)
    assert_allclose(new_wins.mean(axis=0), old_wins.mean(axis=0), atol=0.25)
    assert_allclose(new_wins.std(axis=0), old_wins.std(axis=0), rtol=0.1, atol=0.1)


@pytest.mark.parametrize("method", ["bradley_terry", "expected_wins"])
def test_point_estimates_do_not_depend_on_the_resampling(method):
    c = simulate([10, 0, -10, 5], 60, seed=1)
    wins, draws = pair_counts(c)
    expected = (
        bradley_terry_fit(wins[0], draws[0])
        if method == "bradley_terry"
        else expected_wins_scores(wins[0], draws[0])
    )
    result = rank(method, c, rng=np.random.default_rng(9), runs=20)
    assert_array_equal(result.value, expected)
