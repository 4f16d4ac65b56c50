"""Mean ratings with t intervals from sums (the MTG-style table)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from ranking.stats._means import mean_intervals


def _sums(values: np.ndarray) -> tuple[int, float, float]:
    return len(values), float(values.sum()), float((values * values).sum())


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 5), min_size=2, max_size=300),
    st.sampled_from([0.9, 0.95, 0.99]),
)
def test_the_interval_is_students_t_of_the_ratings(ratings, confidence):
    values = np.array(ratings, dtype=float)
    result = mean_intervals(*map(np.atleast_1d, _sums(values)), confidence=confidence)
    assert result.mean[0] == pytest.approx(values.mean())
    if values.std() == 0:
        assert result.low[0] == pytest.approx(result.high[0]) == pytest.approx(values[0])
        return
    low, high = scipy_stats.t.interval(
        confidence, len(values) - 1, loc=values.mean(), scale=scipy_stats.sem(values)
    )
    assert result.low[0] == pytest.approx(low, rel=1e-9, abs=1e-9)
    assert result.high[0] == pytest.approx(high, rel=1e-9, abs=1e-9)


def test_pooling_groups_is_adding_their_sums():
    rng = np.random.default_rng(7)
    de, fr = rng.integers(1, 6, 40).astype(float), rng.integers(1, 6, 25).astype(float)
    both = np.concatenate([de, fr])
    parts = [_sums(de), _sums(fr)]
    pooled = tuple(a + b for a, b in zip(*parts, strict=True))
    result = mean_intervals(*[np.array(x) for x in zip(*parts, pooled, strict=True)])
    assert result.mean[2] == pytest.approx(both.mean())
    assert result.sd[2] == pytest.approx(both.std(ddof=1))
    assert result.high[2] - result.low[2] < result.high[1] - result.low[1]  # more ratings


def test_one_rating_has_a_mean_and_no_interval_and_none_has_nothing():
    result = mean_intervals(np.array([1, 0]), np.array([4.0, 0.0]), np.array([16.0, 0.0]))
    assert result.mean[0] == 4.0 and math.isnan(result.low[0]) and math.isnan(result.high[0])
    assert all(math.isnan(x[1]) for x in (result.mean, result.sd, result.low, result.high))


def test_impossible_inputs_are_refused():
    with pytest.raises(ValueError, match="confidence"):
        mean_intervals([2], [3.0], [5.0], confidence=1.0)
    with pytest.raises(ValueError, match="one shape"):
        mean_intervals([2, 3], [3.0], [5.0])
    with pytest.raises(ValueError, match="negative"):
        mean_intervals([-1], [3.0], [5.0])
