"""The ranking methods side by side (ranking/stats/_methods.py): each separates a dominant
order, is deterministic for a seed, and refuses unknown names."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from ranking.stats import method_parameters
from ranking.stats._methods import rank
from ranking.stats._pairwise import Comparisons

from .test_wmt14 import dominance, simulate


@pytest.mark.parametrize("method", ["bootstrap", "bradley_terry", "expected_wins", "wmt14"])
def test_every_method_separates_a_dominant_order(method):
    result = rank(method, dominance(40), rng=np.random.default_rng(3), runs=50)
    assert result.method == method
    assert result.value[0] > result.value[1] > result.value[2]
    assert_array_equal(result.rank_lo, [1, 2, 3])
    assert_array_equal(result.rank_hi, [1, 2, 3])
    assert_array_equal(result.cluster, [1, 2, 3])
    assert result.run_values.shape == (50, 3)


@pytest.mark.parametrize("method", ["bootstrap", "bradley_terry", "expected_wins"])
def test_methods_are_deterministic_for_a_seed(method):
    c = simulate([10, 0, -10, 5], 60, seed=1)
    a = rank(method, c, rng=np.random.default_rng(9), runs=20)
    b = rank(method, c, rng=np.random.default_rng(9), runs=20)
    assert_array_equal(a.run_values, b.run_values)
    assert_array_equal(a.cluster, b.cluster)


def test_rank_rejects_unknown_names():
    with pytest.raises(ValueError, match="Unknown method"):
        rank("elo", dominance(), rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown parameter"):
        rank("wmt14", dominance(), rng=np.random.default_rng(0), sigma=1.0)
    assert set(method_parameters("wmt14")) == {
        "mu0",
        "sigma0",
        "beta",
        "tau",
        "draw_probability",
        "steps",
    }
    assert method_parameters("expected_wins") == {"draws_rule": "exclude", "resample": "auto"}


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000), gap=st.floats(120, 250))
def test_more_data_never_merges_a_planted_gap_bt_and_ew(seed, gap):
    strengths = [gap, gap - 10, 0, -10]
    for size in (60, 240):
        c = simulate(strengths, size, seed=seed + size, noise=15)
        for method in ("bradley_terry", "expected_wins"):
            result = rank(method, c, rng=np.random.default_rng(seed), runs=60)
            assert max(result.cluster[[0, 1]]) < min(result.cluster[[2, 3]])


def test_comparisons_of_a_method_result():
    c: Comparisons = simulate([1, 0], 10, k=2, seed=0)
    result = rank("bradley_terry", c, rng=np.random.default_rng(0), runs=5)
    assert result.n_comparisons == len(c)
    assert_array_equal(result.comparisons, c.per_system())
