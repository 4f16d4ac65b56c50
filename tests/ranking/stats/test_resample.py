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


# The data's patterns and fit once per run; two ways to draw a replicate -------------------


def _five_way(n_systems: int, n: int, seed: int) -> Comparisons:
    """Five-way rankings of many systems: nearly every judgement is its own pattern."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(2.0, -2.0, n_systems)
    judgement, system, score = [], [], []
    for j in range(n):
        chosen = rng.choice(n_systems, size=5, replace=False)
        judgement += [j] * 5
        system += chosen.tolist()
        score += (quality[chosen] + rng.gumbel(size=5)).tolist()
    return judgements_to_comparisons(judgement, system, score, n_systems=n_systems)


@pytest.mark.parametrize("method", ["bradley_terry", "expected_wins"])
def test_a_run_of_many_chunks_groups_the_judgements_once(method, monkeypatch):
    """Grouping a million judgements took 7.5 of 19.6 s when every chunk of 40 runs did
    it again (25 times for 1,000 runs): once per data now, whatever the chunks."""
    from ranking.stats import _resample, compute_chunks

    calls = []
    real = _resample.judgement_patterns

    def counted(c):
        calls.append(c)
        return real(c)

    monkeypatch.setattr(_resample, "judgement_patterns", counted)
    c = _five_way(12, 300, seed=1)
    compute_chunks(c, method=method, runs=100, chunk_runs=10, indices=list(range(10)), seed=3)
    assert len(calls) == 1
    # ... and the chunks' numbers are those each chunk computes alone, from fresh data
    alone = compute_chunks(
        _five_way(12, 300, seed=1), method=method, runs=100, chunk_runs=10, indices=[7], seed=3
    )
    together = compute_chunks(c, method=method, runs=100, chunk_runs=10, indices=[7], seed=3)
    assert_array_equal(alone[0].run_values, together[0].run_values)


def test_the_judgement_draw_has_the_bootstrap_distribution():
    """Drawing judgements and counting their patterns = the multinomial over patterns."""
    from ranking.stats._resample import _draw

    c = simulate([10, 0, -10, 5], 60, k=3, seed=5)
    patterns = judgement_patterns(c)
    runs = 3000
    drawn = {}
    for how in ("patterns", "judgements"):
        weights = np.empty((runs, patterns.counts.size))
        for k, stream in enumerate(np.random.default_rng(0).spawn(runs)):
            _draw(stream, patterns, how, weights[k])
        assert np.all(weights.sum(axis=1) == c.n_judgements)
        drawn[how], _ = patterns.pair_counts(weights)
    assert_allclose(drawn["judgements"].mean(axis=0), drawn["patterns"].mean(axis=0), atol=0.25)
    assert_allclose(
        drawn["judgements"].std(axis=0), drawn["patterns"].std(axis=0), rtol=0.1, atol=0.1
    )


def test_each_judgement_knows_its_pattern():
    for c in (simulate([10, 0, -10, 5], 80, k=4, seed=3), _arena(6, 300, seed=4)):
        patterns = judgement_patterns(c)
        one_each = np.ones((1, c.n_judgements), dtype=np.int64)
        wins, draws = pair_counts(c, one_each)
        by_pattern = np.bincount(patterns.of_judgement, minlength=patterns.counts.size)
        assert_array_equal(by_pattern, patterns.counts)
        p_wins, p_draws = patterns.pair_counts(by_pattern[None].astype(float))
        assert_array_equal(p_wins, wins)
        assert_array_equal(p_draws, draws)


@pytest.mark.parametrize(
    ("data", "chosen"),
    [("arena", "patterns"), ("five_way", "judgements")],
)
def test_auto_draws_the_cheaper_way_and_says_which(data, chosen):
    # an arena: 3,000 judgements of one comparison, at most 2 * 6 * 5 patterns; five-way
    # rankings of 30 systems: about one pattern per judgement
    c = _arena(6, 3000, seed=2) if data == "arena" else _five_way(30, 400, seed=2)
    result = rank("bradley_terry", c, rng=np.random.default_rng(1), runs=8)
    assert result.params["resample"] == chosen
    # asked for by name, the other way draws other replicates of the same data
    other = "judgements" if chosen == "patterns" else "patterns"
    forced = rank("bradley_terry", c, rng=np.random.default_rng(1), runs=8, resample=other)
    assert forced.params["resample"] == other
    assert_array_equal(forced.value, result.value)
    assert not np.array_equal(forced.run_values, result.run_values)
    again = rank("bradley_terry", c, rng=np.random.default_rng(1), runs=8)
    assert_array_equal(again.run_values, result.run_values)


def test_an_unknown_resampler_is_refused():
    from ranking.stats import ParameterError, check_parameters

    with pytest.raises(ParameterError, match="'auto', 'patterns' or 'judgements'"):
        check_parameters("bradley_terry", {"resample": "poisson"})
    check_parameters("expected_wins", {"resample": "judgements"})


def test_the_numbers_do_not_depend_on_the_blas_threads():
    """The fits run on one BLAS thread whatever the process allows: a sum's last digits
    must not depend on how many threads added it up."""
    from threadpoolctl import threadpool_limits

    c = _five_way(60, 1500, seed=3)
    results = []
    for threads in (1, 2):
        with threadpool_limits(limits=threads, user_api="blas"):
            results.append(rank("bradley_terry", c, rng=np.random.default_rng(4), runs=16))
    assert_array_equal(results[0].run_values, results[1].run_values)
