"""The adaptive choice of systems (ranking/stats/_adaptive.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ranking.stats import choose_batch
from ranking.stats._adaptive import contested_gaps


def settled_state(n: int = 12) -> dict[str, Any]:
    """Systems 0..n-1 in value order, every range a single rank except 5 and 6, which
    share ranks 6-7: the gap 5 | 6 is open (the two may swap: contested), the
    boundaries 4 | 5 and 6 | 7 are drawn (the ranges touch: settled), and so are all
    the others."""
    lo = np.arange(1, n + 1)
    hi = lo.copy()
    lo[6], hi[5] = 6, 7
    return {
        "value": np.linspace(1.0, 0.0, n),
        "sigma": np.full(n, 0.1),
        "rank_lo": lo,
        "rank_hi": hi,
    }


def test_contested_gaps_are_the_open_ones_near_a_boundary() -> None:
    state = settled_state()
    gaps, overlap, touches = contested_gaps(
        state["value"], state["rank_lo"], state["rank_hi"], margin=2
    )
    assert overlap.tolist() == [0] * 5 + [2] + [0] * 5
    assert gaps.tolist() == [5]
    assert np.flatnonzero(touches).tolist() == [5, 6]
    narrower, _, _ = contested_gaps(state["value"], state["rank_lo"], state["rank_hi"], margin=1)
    assert narrower.tolist() == []


def test_a_drawn_boundary_is_not_contested_and_gets_no_boundary_slots() -> None:
    """The defect: a boundary already drawn (ranges touching, overlap 0) beside
    systems not pinned to one rank counted as contested, and the rule put its two
    systems into every task while the open gap above got coverage only."""
    n = 8
    # 0 | 1 open (ranks 1-2 shared); 2-4 tie on ranks 3-5 and touch 5-7 (ranks 6-8)
    lo = np.array([1, 1, 3, 3, 3, 6, 6, 6])
    hi = np.array([2, 2, 5, 5, 5, 8, 8, 8])
    value = np.linspace(1.0, 0.0, n)
    gaps, overlap, _ = contested_gaps(value, lo, hi, margin=2)
    assert overlap[4] == 0 and 4 not in gaps.tolist()
    assert gaps.tolist() == [0]
    batch = choose_batch(
        value=value,
        sigma=np.full(n, 0.1),
        rank_lo=lo,
        rank_hi=hi,
        n_tasks=20,
        k=2,
        rng=np.random.default_rng(1),
        min_share=0.0,
        margin=2,
    )
    counts = np.bincount(batch.tasks.reshape(-1), minlength=n)
    assert batch.boundary.tolist() == [0, 1]
    assert counts[0] == counts[1] == 20
    assert counts[[4, 5]].max() == 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_task_has_distinct_systems_and_the_quotas_add_up(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 21
    state: dict[str, Any] = {
        "value": rng.normal(size=n),
        "sigma": rng.uniform(0.01, 0.5, n),
        "rank_lo": rng.integers(1, 8, n),
        "rank_hi": rng.integers(8, n + 1, n),
    }
    batch = choose_batch(n_tasks=37, k=5, rng=rng, **state)
    assert batch.tasks.shape == (37, 5)
    for row in batch.tasks:
        assert len(set(row.tolist())) == 5
    assert np.array_equal(np.bincount(batch.tasks.reshape(-1), minlength=n), batch.quota)
    assert batch.quota.sum() == 37 * 5


@pytest.mark.parametrize("min_share", [0.0, 0.3, 0.6, 1.0])
def test_every_system_gets_its_coverage_minimum(min_share: float) -> None:
    n, n_tasks, k = 12, 40, 4
    batch = choose_batch(
        n_tasks=n_tasks, k=k, rng=np.random.default_rng(3), min_share=min_share, **settled_state(n)
    )
    minimum = int(np.floor(min_share * n_tasks * k / n))
    assert batch.minimum == minimum
    counts = np.bincount(batch.tasks.reshape(-1), minlength=n)
    assert counts.min() >= minimum
    if min_share == 1.0:  # the balanced share: only the rounding remainder is favoured
        assert counts.min() == minimum
        assert counts.sum() - n * minimum < n


def test_boundary_systems_are_favoured_over_settled_ones() -> None:
    batch = choose_batch(n_tasks=30, k=4, rng=np.random.default_rng(5), **settled_state())
    counts = np.bincount(batch.tasks.reshape(-1), minlength=12)
    boundary = [5, 6]
    assert set(batch.boundary.tolist()) == set(boundary)
    assert counts[boundary].min() > np.delete(counts, boundary).max()
    reasons = {
        (s, r)
        for choice in batch.choices
        for s, r in zip(choice.systems, choice.reasons, strict=True)
    }
    assert {(s, "boundary") for s in boundary} <= reasons
    assert all(r != "boundary" for s, r in reasons if s not in boundary)


def test_among_boundary_systems_the_largest_sigma_gets_most() -> None:
    state = settled_state()
    state["sigma"] = state["sigma"].copy()
    # ranks 5-8 shared by systems 4-7: three open gaps; system 6 the least certain
    state["rank_lo"][4:8], state["rank_hi"][4:8] = 5, 8
    state["sigma"][6] = 0.4
    batch = choose_batch(
        n_tasks=40, k=2, rng=np.random.default_rng(5), min_share=0.0, margin=4, **state
    )
    assert batch.boundary[0] == 6 and set(batch.boundary.tolist()) == {4, 5, 6, 7}
    counts = np.bincount(batch.tasks.reshape(-1), minlength=12)
    assert counts[6] == 40  # in every task
    assert counts[6] > counts[[4, 5, 7]].max()


def test_without_state_the_batch_is_balanced() -> None:
    n = 21
    batch = choose_batch(
        value=np.zeros(n),
        sigma=np.ones(n),
        rank_lo=np.ones(n, dtype=np.int64),
        rank_hi=np.full(n, n),
        n_tasks=42,
        k=5,
        rng=np.random.default_rng(0),
    )
    assert batch.gaps.size == 0
    counts = np.bincount(batch.tasks.reshape(-1), minlength=n)
    assert counts.tolist() == [10] * n


def test_same_generator_state_gives_the_same_batch_and_log() -> None:
    state = settled_state()
    a = choose_batch(n_tasks=20, k=4, rng=np.random.default_rng(11), **state)
    b = choose_batch(n_tasks=20, k=4, rng=np.random.default_rng(11), **state)
    c = choose_batch(n_tasks=20, k=4, rng=np.random.default_rng(12), **state)
    assert np.array_equal(a.tasks, b.tasks)
    assert a.choices == b.choices
    assert a.summary() == b.summary()
    assert not np.array_equal(a.tasks, c.tasks)


def test_positions_within_tasks_are_shuffled() -> None:
    # system 6 has the largest quota, so it is dealt first into every task; shown
    # unshuffled it would always come first
    state = settled_state()
    state["sigma"] = state["sigma"].copy()
    state["sigma"][6] = 0.4
    batch = choose_batch(n_tasks=200, k=2, rng=np.random.default_rng(2), min_share=0.0, **state)
    positions = np.flatnonzero(batch.tasks.reshape(-1) == 6) % 2
    assert positions.size == 200
    assert np.bincount(positions, minlength=2).min() > 70  # about 100 each


def test_bad_arguments_are_refused() -> None:
    state = settled_state()
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="k must lie"):
        choose_batch(n_tasks=5, k=13, rng=rng, **state)
    with pytest.raises(ValueError, match="n_tasks"):
        choose_batch(n_tasks=0, k=4, rng=rng, **state)
    with pytest.raises(ValueError, match="min_share"):
        choose_batch(n_tasks=5, k=4, rng=rng, min_share=1.5, **state)
    with pytest.raises(ValueError, match="one entry per system"):
        choose_batch(n_tasks=5, k=4, rng=rng, **{**state, "sigma": np.ones(3)})
