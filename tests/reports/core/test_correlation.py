import itertools
import math

import numpy as np
import pytest
from scipy import stats

from reports.core.correlation import (
    SEGMENT_METHODS,
    segment_correlations,
    system_correlations,
    tau_like,
    tau_like_counts,
)


def _data(seed: int, n: int, ties: bool = False):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = x + rng.normal(size=n)
    if ties:
        x, y = np.round(x), np.round(y * 2) / 2
    return x, y


@pytest.mark.parametrize("ties", [False, True])
def test_system_level_equals_scipy_exactly_and_intervals_cover(ties):
    x, y = _data(1, 21, ties)
    got = {
        c.method: c for c in system_correlations(x, y, rng=np.random.default_rng(5), resamples=300)
    }
    assert got["pearson"].value == stats.pearsonr(x, y).statistic
    assert got["spearman"].value == stats.spearmanr(x, y).statistic
    assert got["kendall"].value == stats.kendalltau(x, y, variant="b").statistic
    for c in got.values():
        assert c.level == "system" and c.n == 21 and c.resamples == 300
        assert c.low <= c.value <= c.high
        assert 0 < c.valid <= 300


def test_segment_level_pooled_statistics_equal_scipy_exactly():
    x, y = _data(2, 300, ties=True)
    groups = np.repeat(np.arange(60), 5)
    got = {
        c.method: c
        for c in segment_correlations(x, y, groups, rng=np.random.default_rng(1), resamples=200)
    }
    assert list(got) == list(SEGMENT_METHODS)
    assert got["pearson"].value == stats.pearsonr(x, y).statistic
    assert got["spearman"].value == stats.spearmanr(x, y).statistic
    assert got["kendall"].value == stats.kendalltau(x, y, variant="b").statistic
    for c in got.values():
        assert c.low <= c.value <= c.high


def _tau_like_brute(x, y, groups):
    concordant = discordant = 0
    for g in set(groups.tolist()):
        idx = np.flatnonzero(groups == g)
        for i, j in itertools.combinations(idx, 2):
            if y[i] == y[j]:
                continue  # human ties are not pairs
            if np.sign(x[i] - x[j]) == np.sign(y[i] - y[j]):
                concordant += 1
            else:
                discordant += 1  # metric ties count as discordant
    return (concordant - discordant) / (concordant + discordant), concordant + discordant


def test_tau_like_counts_within_items_only_and_penalises_metric_ties():
    x, y = _data(3, 120, ties=True)
    groups = np.repeat(np.arange(24), 5)
    expected, pairs = _tau_like_brute(x, y, groups)
    assert tau_like(x, y, groups) == pytest.approx(expected, abs=1e-15)
    seg = segment_correlations(x, y, groups, rng=np.random.default_rng(0), resamples=50)[-1]
    assert seg.method == "tau_like" and seg.n == pairs
    assert seg.value == pytest.approx(expected, abs=1e-15)
    # A metric tie on a human-ordered pair is discordant: all-tied metric gives -1.
    assert tau_like(np.zeros(4), [1.0, 2.0, 3.0, 4.0], [0, 0, 1, 1]) == -1.0
    # Without ties and in one group, tau-like is scipy's Kendall tau.
    a, b = _data(4, 30)
    assert tau_like(a, b, np.zeros(30)) == pytest.approx(stats.kendalltau(a, b).statistic)
    # Pairs across items never count.
    _, c, d = tau_like_counts([1.0, 2.0], [2.0, 1.0], [0, 1])
    assert c.sum() == d.sum() == 0
    assert math.isnan(tau_like([1.0, 2.0], [2.0, 1.0], [0, 1]))


def test_bootstrap_is_seeded_and_resamples_are_a_parameter():
    x, y = _data(5, 40)
    groups = np.repeat(np.arange(8), 5)
    first = segment_correlations(x, y, groups, rng=np.random.default_rng(9), resamples=100)
    again = segment_correlations(x, y, groups, rng=np.random.default_rng(9), resamples=100)
    other = segment_correlations(x, y, groups, rng=np.random.default_rng(10), resamples=100)
    assert first == again
    assert [c.low for c in first] != [c.low for c in other]
    assert all(c.resamples == 100 for c in first)


def test_undefined_statistics_are_nan_not_errors():
    got = system_correlations([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], rng=np.random.default_rng(0))
    assert all(math.isnan(c.value) and c.valid == 0 for c in got)
    with pytest.raises(ValueError, match="same length"):
        system_correlations([1.0], [1.0, 2.0], rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="resamples"):
        system_correlations([1.0, 2.0], [1.0, 2.0], rng=np.random.default_rng(0), resamples=0)
