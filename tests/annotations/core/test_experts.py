"""Crowd versus experts (annotations.core.experts): the figures against independent
computations (the krippendorff package, scipy.stats, explicit resamples)."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from scipy import stats

from annotations.core.agreement import krippendorff_alpha_long
from annotations.core.experts import alpha_with_experts, ranking_agreement


def _judged(rng: np.random.Generator, noise: float):
    """An expert and a worker scoring 3 outputs of each of 12 tasks; long format."""
    task, unit, value, coder = [], [], [], []
    for t in range(12):
        truth = rng.normal(size=3) * 10
        for c, spread in ((0, 1.0), (1, noise)):
            for o in range(3):
                task.append(t)
                unit.append(t * 3 + o)
                value.append(round(float(truth[o] + rng.normal() * spread), 1))
                coder.append(c)
    return np.array(task), np.array(unit), np.array(value), np.array(coder)


def test_alpha_is_the_krippendorff_packages_and_its_interval_is_explicit_resamples() -> None:
    task, unit, value, coder = _judged(np.random.default_rng(5), noise=4.0)
    matrix = np.full((2, unit.max() + 1), np.nan)
    matrix[coder, unit] = value
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    estimate = alpha_with_experts(task, unit, value, rng=np.random.default_rng(9), resamples=300)
    assert estimate.value == pytest.approx(expected, abs=1e-12)
    assert estimate.n == 36
    # The same draws, recounted the slow way: each drawn task's units as new units.
    draws = np.random.default_rng(9).integers(0, 12, size=(300, 12))
    slow = []
    for drawn in draws:
        rows = np.concatenate([np.flatnonzero(task == t) for t in drawn])
        copy = np.repeat(np.arange(12), [np.sum(task == t) for t in drawn])
        slow.append(krippendorff_alpha_long(unit[rows] + copy * 1000, value[rows]))
    low, high = np.percentile(slow, [2.5, 97.5])
    assert (estimate.low, estimate.high) == pytest.approx((low, high), abs=1e-9)
    assert estimate.low <= estimate.value <= estimate.high


def test_a_careless_worker_agrees_less_than_a_careful_one() -> None:
    careful = alpha_with_experts(
        *_judged(np.random.default_rng(1), noise=1.0)[:3], rng=np.random.default_rng(2)
    )
    careless = alpha_with_experts(
        *_judged(np.random.default_rng(1), noise=30.0)[:3], rng=np.random.default_rng(2)
    )
    assert careful.value > 0.9 > careless.high


def test_no_shared_unit_is_undefined_not_zero() -> None:
    estimate = alpha_with_experts(
        np.array([1, 2]), np.array([10, 20]), np.array([1.0, 2.0]), rng=np.random.default_rng(0)
    )
    assert not estimate.defined and estimate.n == 0


def test_ranking_agreement_is_scipys_on_mean_ranks() -> None:
    rng = np.random.default_rng(4)
    quality = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    item, system, rank, expert = [], [], [], []
    for i in range(30):
        for side, noise in ((False, 2.0), (True, 0.5)):
            shown = rng.permutation(5)[:3]
            noisy = quality[shown] + rng.normal(size=3) * noise
            ranks = stats.rankdata(-noisy)
            for s, r in zip(shown, ranks, strict=True):
                item.append(i)
                system.append(s)
                rank.append(r)
                expert.append(side)
    item_a, system_a, rank_a, expert_a = map(np.array, (item, system, rank, expert))
    result = ranking_agreement(
        item_a, system_a, rank_a, expert_a, rng=np.random.default_rng(0), resamples=200
    )
    crowd = [rank_a[(system_a == s) & ~expert_a].mean() for s in range(5)]
    experts = [rank_a[(system_a == s) & expert_a].mean() for s in range(5)]
    assert result.spearman.value == stats.spearmanr(crowd, experts).statistic
    assert result.kendall.value == stats.kendalltau(crowd, experts).statistic
    assert result.spearman.n == 5
    assert result.spearman.low <= result.spearman.value <= result.spearman.high
    assert result.kendall.low <= result.kendall.value <= result.kendall.high
