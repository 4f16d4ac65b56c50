"""The pieces of ``benchmarks/simulate.py`` that decide what counts as reaching the truth."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.simulate import (
    Truth,
    balanced_tasks,
    krippendorff_interval,
    oracle_tasks,
    right_and_wrong,
)
from ranking.stats._result import summarise_runs


def truth_of(share: np.ndarray, target: set[int]) -> Truth:
    n = share.shape[0]
    expected = summarise_runs(
        method="x",
        run_values=np.tile(np.arange(n, 0, -1, dtype=float), (3, 1)),
        confidence=0.95,
        comparisons=np.ones(n),
        n_comparisons=1,
        params={},
    )
    return Truth(np.zeros((1, n)), share, np.zeros_like(share), np.arange(n), target, expected)


def test_right_needs_every_target_boundary_and_no_wrong_one() -> None:
    # true order 0 > 1 > 2 > 3; 1 and 2 practically level
    share = np.full((4, 4), 0.5)
    for a, b, p in [(0, 1, 0.6), (1, 2, 0.502), (2, 3, 0.6), (0, 2, 0.6), (0, 3, 0.7), (1, 3, 0.6)]:
        share[a, b], share[b, a] = p, 1 - p
    truth = truth_of(share, {0})
    assert right_and_wrong(np.array([1, 2, 2, 2]), truth) == (True, False)
    assert right_and_wrong(np.array([1, 2, 3, 4]), truth) == (True, False)  # finer: fine
    assert right_and_wrong(np.array([1, 1, 1, 1]), truth) == (False, False)  # boundary missing
    # 2 above 1 (level pair): not wrong; 3 above 2 (a real difference): wrong
    assert right_and_wrong(np.array([1, 3, 2, 3]), truth) == (True, False)
    assert right_and_wrong(np.array([1, 2, 3, 2]), truth) == (False, True)


def test_balanced_and_oracle_tasks_are_valid() -> None:
    rng = np.random.default_rng(0)
    tasks = balanced_tasks(400, 21, 5, rng)
    counts = np.bincount(tasks.ravel(), minlength=21)
    assert counts.max() - counts.min() <= 1
    assert all(len(set(row.tolist())) == 5 for row in tasks)
    shares = np.linspace(3, 1, 21)
    shares /= shares.sum()
    tasks = oracle_tasks(shares, 100, k=5, rng=rng)
    assert all(len(set(row.tolist())) == 5 for row in tasks)
    counts = np.bincount(tasks.ravel(), minlength=21)
    assert np.abs(counts - shares * 500).max() <= 1


def test_krippendorff_alpha_perfect_and_chance() -> None:
    unit = np.repeat(np.arange(50), 2)
    systems = np.tile(np.arange(3), (100, 1))
    same = np.tile(np.random.default_rng(1).random((50, 3)), (1, 1)).repeat(2, axis=0)
    assert krippendorff_interval(unit, systems, same) == 1.0
    noise = np.random.default_rng(2).random((100, 3))
    assert abs(krippendorff_interval(unit, systems, noise)) < 0.2


def test_a_run_records_the_production_stop_rule_and_whether_it_stopped_right() -> None:
    """The stop rule an organizer is told about (clusters equal at three refits in a
    row) is recorded beside the judgements needed, with whether its clusters are right
    or wrong, for every design."""
    from benchmarks.simulate import make_truth, run_design
    from tests.ranking.stats.test_simulate import make

    sim = make(n_systems=6, n_items=40, n_workers=20).with_quality(
        np.array([0.6, 0.3, 0.2, 0.0, -0.1, -0.5])
    )
    truth = make_truth(sim, reference=600, judgements=100_000)
    for design in ("balanced", "contested"):
        run = run_design(sim, design, truth=truth, seed=0, batch=20, cap=1200)
        assert run.stopped is not None and run.stopped % 20 == 0
        assert run.stopped_right is not None and run.stopped_wrong is not None
        assert not (run.stopped_right and run.stopped_wrong)
        if run.needed is not None:
            assert run.judgements[-1] - run.needed == 2 * 20  # refits kept until reached


def test_the_geometric_mean_ratio_and_its_bootstrap_interval() -> None:
    from benchmarks.simulate import gm_ratio_ci

    base = np.array([1000.0, 1200.0, 1500.0, 900.0, 1300.0])
    point, low, high = gm_ratio_ci(base / 2, base, rng=np.random.default_rng(0))
    assert point == pytest.approx(0.5)
    assert low < 0.5 < high  # seeds resampled apart: the interval has width
    same = gm_ratio_ci(base, base, rng=np.random.default_rng(0))
    assert same[0] == pytest.approx(1.0) and same[1] < 1.0 < same[2]
