"""The adaptive rules of ``choose_batch`` (``rule=``): reproducible, every batch valid."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ranking.stats import ADAPTIVE_RULES, choose_batch, overlap_weights


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
