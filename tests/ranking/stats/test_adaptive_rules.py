"""The adaptive rules of ``choose_batch`` (``rule=``): reproducible, every batch valid."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ranking.stats import ADAPTIVE_RULES, choose_batch, overlap_weights
from ranking.stats._adaptive import lucb_gaps


def state(n: int = 10) -> dict[str, Any]:
    value = np.linspace(1.0, 0.0, n)
    value[4] = value[5] + 0.01  # systems 4 and 5 nearly level: the contested pair
    lo = np.arange(1, n + 1)
    hi = lo.copy()
    lo[5], hi[4] = 5, 6
    return {"value": value, "sigma": np.full(n, 0.05), "rank_lo": lo, "rank_hi": hi}


@pytest.mark.parametrize("rule", ADAPTIVE_RULES)
@pytest.mark.parametrize(("n", "k", "tasks"), [(10, 5, 30), (6, 6, 4), (3, 2, 7), (21, 5, 1)])
def test_every_batch_is_valid_and_reproducible(rule, n, k, tasks):
    s = (
        state(n)
        if n > 6
        else {
            "value": np.linspace(1, 0, n),
            "sigma": np.full(n, 0.2),
            "rank_lo": np.ones(n, dtype=np.int64),
            "rank_hi": np.full(n, n, dtype=np.int64),
        }
    )
    a = choose_batch(n_tasks=tasks, k=k, rng=np.random.default_rng(4), rule=rule, **s)
    b = choose_batch(n_tasks=tasks, k=k, rng=np.random.default_rng(4), rule=rule, **s)
    np.testing.assert_array_equal(a.tasks, b.tasks)
    assert a.tasks.shape == (tasks, k)
    assert all(len(set(row.tolist())) == k for row in a.tasks)  # distinct systems per task
    assert a.tasks.min() >= 0 and a.tasks.max() < n
    assert a.quota.sum() == tasks * k
    np.testing.assert_array_equal(a.quota, np.bincount(a.tasks.ravel(), minlength=n))
    assert [c.systems for c in a.choices] == [tuple(r) for r in a.tasks.tolist()]


def test_overlap_rule_goes_to_the_uncertain_pair():
    s = state(10)
    batch = choose_batch(n_tasks=200, k=2, rng=np.random.default_rng(0), rule="overlap", **s)
    pairs = {tuple(sorted(r)) for r in batch.tasks.tolist()}
    together = sum(sorted(r) == [4, 5] for r in batch.tasks.tolist())
    assert together > 50  # a quarter of the batch for 1 of 45 pairs
    assert len(pairs) > 1  # the floor keeps other pairs possible


def test_overlap_weights():
    w = overlap_weights([1.0, 1.0, 0.0], [0.1, 0.1, 0.0])
    assert w[0, 1] == pytest.approx(0.5)
    assert w[0, 2] < 1e-10 and np.all(np.diag(w) == 0)
    np.testing.assert_allclose(w, w.T)
    level = overlap_weights([0.0, 0.0], [0.0, 0.0])
    assert level[0, 1] == pytest.approx(0.5)


def test_unknown_rule_refused():
    with pytest.raises(ValueError, match="rule"):
        choose_batch(n_tasks=1, k=2, rng=np.random.default_rng(0), rule="bandit", **state(10))


def test_lucb_pursues_the_open_gap_and_leaves_ties_and_settled_gaps():
    # 0 far ahead (settled), 1 | 2 a real but unresolved gap, 2..5 level
    value = np.array([3.0, 1.0, 0.55, 0.5, 0.5, 0.45])
    sigma = np.array([0.05, 0.2, 0.2, 0.2, 0.2, 0.2])
    lo = np.array([1, 2, 2, 3, 3, 3])
    hi = np.array([1, 3, 6, 6, 6, 6])
    gaps = lucb_gaps(value, sigma, lo, hi)
    assert [p for p, _ in gaps] == [1]
    _, ambiguous = gaps[0]
    assert ambiguous[:2].tolist() == [1, 2]  # the critical pair first
    batch = choose_batch(
        value=value,
        sigma=sigma,
        rank_lo=lo,
        rank_hi=hi,
        n_tasks=40,
        k=2,
        rng=np.random.default_rng(0),
        rule="lucb",
    )
    # the two systems beside the open gap get the most slots, the settled leader few
    assert set(np.argsort(-batch.quota)[:2].tolist()) == {1, 2}
    assert batch.quota[0] < batch.quota[1]


def test_lucb_without_open_gaps_is_balanced():
    n = 8
    batch = choose_batch(
        value=np.zeros(n),
        sigma=np.ones(n),
        rank_lo=np.ones(n, dtype=np.int64),
        rank_hi=np.full(n, n, dtype=np.int64),
        n_tasks=16,
        k=4,
        rng=np.random.default_rng(1),
        rule="lucb",
    )
    assert batch.quota.max() - batch.quota.min() <= 1
