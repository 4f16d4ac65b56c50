"""The pieces of ``benchmarks/simulate.py`` that decide what counts as reaching the truth."""

from __future__ import annotations

from typing import Any

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
        if run.needed is not None and run.reached_refits is not None:
            # right at three refits in a row from ``needed``
            assert run.judgements[run.reached_refits - 1] - run.needed == 2 * 20


def test_the_paired_ratio_and_its_bootstrap_interval() -> None:
    from benchmarks.simulate import paired_ratio_ci

    base = np.array([1000.0, 1200.0, 1500.0, 900.0, 1300.0])
    # every seed exactly half: the seeds are paired, so the interval has no width
    point, low, high = paired_ratio_ci(base / 2, base, rng=np.random.default_rng(0))
    assert (point, low, high) == pytest.approx((0.5, 0.5, 0.5))
    ratio = np.array([0.5, 1.0, 0.8, 0.6, 1.2])
    point, low, high = paired_ratio_ci(base * ratio, base, rng=np.random.default_rng(0))
    assert point == pytest.approx(float(np.exp(np.log(ratio).mean())))
    assert 0.5 <= low < point < high <= 1.2


def crn_runs(seed: int) -> dict[str, Any]:
    from benchmarks.simulate import make_truth, run_design
    from tests.ranking.stats.test_simulate import make

    sim = make(n_systems=6, n_items=40, n_workers=20).with_quality(
        np.array([0.6, 0.3, 0.2, 0.0, -0.1, -0.5])
    )
    truth = make_truth(sim, reference=600, judgements=50_000)
    return {
        d: run_design(sim, d, truth=truth, seed=seed, batch=20, cap=400, until=400, record=True)
        for d in ("balanced", "contested", "lucb")
    }


def answers_by_request(run: Any) -> dict[tuple[int, int], float]:
    """(request number, system) -> score."""
    tasks, scores = np.concatenate(run.asked), np.concatenate(run.answers)
    return {
        (j, int(s)): float(x)
        for j, (row, xs) in enumerate(zip(tasks, scores, strict=True))
        for s, x in zip(row, xs, strict=True)
    }


def test_every_design_gets_the_same_answer_to_the_same_request() -> None:
    """Common random numbers: the j-th request showing system s gets the same score in
    every design of a seed (whatever the other systems and positions), so the designs'
    per-seed comparison is paired; another seed's crowd answers differently."""
    runs = crn_runs(seed=0)
    by = {d: answers_by_request(r) for d, r in runs.items()}
    for other in ("contested", "lucb"):
        shared = by["balanced"].keys() & by[other].keys()
        assert len(shared) > 200  # the designs do share requests
        assert all(by["balanced"][key] == by[other][key] for key in shared)
    # the designs differ in what they ask, not in how the crowd answers
    assert any(
        not np.array_equal(a, b)
        for a, b in zip(runs["balanced"].asked, runs["contested"].asked, strict=False)
    )
    again = answers_by_request(crn_runs(seed=1)["balanced"])
    shared = by["balanced"].keys() & again.keys()
    differ = np.mean([by["balanced"][key] != again[key] for key in shared])
    assert differ > 0.3


def test_budget_counts_take_the_last_refit_at_or_below_each_budget() -> None:
    from benchmarks.simulate import Run, budget_counts, budget_table

    def run(right: list[bool], wrong: list[bool]) -> Run:
        return Run("x", judgements=[100, 200, 300], right=right, wrong=wrong)

    runs = {
        "balanced": [
            run([False, True, True], [False, False, False]),
            run([False, False, True], [True, False, False]),
            run([True, True, False], [False, False, True]),
        ],
        "contested": [
            run([True, True, True], [False, False, False]),
            run([False, False, False], [True, True, True]),
        ],
    }
    counts = budget_counts(runs, [50, 100, 250, 300, 1000])
    # 50: no refit yet (neither right nor wrong); 250: the refit at 200
    assert counts["balanced"] == [(0, 0, 3), (1, 1, 3), (2, 0, 3), (2, 1, 3), (2, 1, 3)]
    assert counts["contested"] == [(0, 0, 2), (1, 1, 2), (1, 1, 2), (1, 1, 2), (1, 1, 2)]
    lines = budget_table(runs, [100, 300], reference=300)
    assert len(lines) == 3 and "300 (100%) right" in lines[0]
    # 2 of 3 right at 300: 0.67 with its Wilson interval
    assert "0.67 [0.21-0.94]" in lines[1]


def history(clusters: list[tuple[int, ...]], step: int = 100, overlap=(-1, 3)):
    from benchmarks.simulate import Refit

    return [
        Refit((i + 1) * step, c, tuple((x, x) for x in c), tuple(overlap))
        for i, c in enumerate(clusters)
    ]


def test_stop_rules_read_only_the_refit_history() -> None:
    """The candidate stop rules: production's (three equal refits with a boundary), a
    longer streak, stability while the judgements grew by half, and no nearly drawn
    boundary left open."""
    from benchmarks.simulate import PRODUCTION_STOP, STOP_RULES, StopRule

    a, b = (1, 2, 2), (1, 1, 2)
    assert PRODUCTION_STOP.holds(history([b, a, a, a]))
    assert not PRODUCTION_STOP.holds(history([a, b, a]))
    assert not PRODUCTION_STOP.holds(history([(1, 1, 1)] * 3))  # no boundary
    five = STOP_RULES["5 in a row"]
    assert not five.holds(history([b, a, a, a, a])) and five.holds(history([a] * 5))
    grew = StopRule("g", growth=0.5)
    # equal since 400 at 600 judgements (grew by half), not since 500 at 700
    assert grew.holds(history([b, b, b, a, a, a]))
    assert not grew.holds(history([b, b, b, b, a, a, a]))
    assert not grew.holds(history([a, a]))  # nothing read 2/3 of the judgements
    gap = StopRule("gap", open_margin=1)
    assert not gap.holds(history([a] * 3, overlap=(-2, 1)))
    assert gap.holds(history([a] * 3, overlap=(-2, 2)))
    # shows 50, 3 systems, 5 per task: held over ceil(50 * 3 / 5) = 30 judgements
    span = StopRule("s", shows=50)
    assert span.holds(history([b, a, a, a, a], step=10))  # equal since 20 at 50
    assert not span.holds(history([b, b, a, a, a], step=10))  # since 30 at 50: 20
    assert not span.holds(history([b, a, a, a, a], step=10), k=3)  # 50 apart: no refit
    ranges = StopRule("r", ranges=True)
    moved = history([a] * 3)
    moved[0] = type(moved[0])(100, a, ((1, 2), (2, 3), (2, 3)), (-1, 3))
    assert PRODUCTION_STOP.holds(moved) and not ranges.holds(moved)


def test_a_run_records_every_stop_rule() -> None:
    """Each rule's first stop is recorded with its clusters' right / wrong; production's
    rule (three equal refits and the span) never stops before three equal refits."""
    from benchmarks.simulate import PRODUCTION_STOP, STOP_RULES, make_truth, run_design
    from tests.ranking.stats.test_simulate import make

    sim = make(n_systems=6, n_items=40, n_workers=20).with_quality(
        np.array([0.6, 0.3, 0.2, 0.0, -0.1, -0.5])
    )
    truth = make_truth(sim, reference=600, judgements=100_000)
    rules = [PRODUCTION_STOP, STOP_RULES["3 in a row"]]
    run = run_design(sim, "contested", truth=truth, seed=0, batch=20, cap=1200, stop_rules=rules)
    assert run.stops[PRODUCTION_STOP.name][0] == run.stopped
    assert run.stops[PRODUCTION_STOP.name][1:] == (run.stopped_right, run.stopped_wrong)
    assert run.stops["3 in a row"][0] <= run.stopped


def test_the_simulator_evaluates_the_production_stop_rule() -> None:
    """``PRODUCTION_STOP`` is ``ranking.services.adaptive``'s rule, constants and all."""
    from benchmarks.simulate import PRODUCTION_STOP
    from ranking.services import adaptive

    assert PRODUCTION_STOP.streak == adaptive.STABLE_REFITS
    assert PRODUCTION_STOP.shows == adaptive.STABLE_SHOWS
    assert not (PRODUCTION_STOP.growth or PRODUCTION_STOP.ranges or PRODUCTION_STOP.open_margin)


def test_the_oracle_demand_names_the_systems_of_the_refits_errors() -> None:
    """``oracle_demand``: a missing target boundary asks for the systems whose ranges
    reach across it, a wrong boundary for its two systems, a right refit for none."""
    from types import SimpleNamespace

    from benchmarks.simulate import oracle_demand

    share = np.full((4, 4), 0.5)
    for a, b, p in [(0, 1, 0.6), (1, 2, 0.6), (2, 3, 0.6), (0, 2, 0.7), (0, 3, 0.8), (1, 3, 0.7)]:
        share[a, b], share[b, a] = p, 1 - p
    truth = truth_of(share, {1})  # 0 > 1 | 2 > 3

    def state(lo: list[int], hi: list[int], cluster: list[int]) -> Any:
        return SimpleNamespace(
            rank_lo=np.array(lo), rank_hi=np.array(hi), cluster=np.array(cluster)
        )

    # boundary missing: 0, 1 and 2 reach across it, 3 does not
    missing = state([1, 1, 1, 4], [2, 3, 3, 4], [1, 1, 1, 2])
    assert oracle_demand(missing, truth).tolist() == [1, 1, 1, 0]
    # boundary drawn, but 1 above 0 (0 beats it by 0.1): wrong, both asked for
    swapped = state([2, 1, 3, 3], [2, 1, 4, 4], [2, 1, 3, 3])
    assert oracle_demand(swapped, truth).tolist() == [1, 1, 0, 0]
    right = state([1, 1, 3, 3], [2, 2, 4, 4], [1, 1, 2, 2])
    assert oracle_demand(right, truth).tolist() == [0, 0, 0, 0]


def test_oracle_adaptive_runs_the_contested_allocation_on_the_truths_demand(monkeypatch) -> None:
    """After the first (balanced) batch, every ``oracle-adaptive`` batch comes from
    ``oracle_adaptive_tasks`` with contested's coverage minimum; its tasks are valid."""
    from benchmarks import simulate
    from benchmarks.simulate import make_truth, run_design
    from tests.ranking.stats.test_simulate import make

    sim = make(n_systems=6, n_items=40, n_workers=20).with_quality(
        np.array([0.5, 0.45, 0.4, 0.0, -0.05, -0.1])
    )
    truth = make_truth(sim, reference=600, judgements=50_000)
    calls: list[dict[str, Any]] = []
    real = simulate.oracle_adaptive_tasks

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        tasks = real(*args, **kwargs)
        assert all(len(set(row.tolist())) == 5 for row in tasks)
        return tasks

    monkeypatch.setattr(simulate, "oracle_adaptive_tasks", spy)
    run = run_design(sim, "oracle-adaptive", truth=truth, seed=0, batch=20, cap=300, min_share=0.15)
    assert len(calls) == len(run.judgements) - 1 == 300 // 20 - 1
    assert all(c["min_share"] == 0.15 for c in calls)


def test_the_best_fixed_allocation_meets_every_boundary_constraint() -> None:
    """``oracle_counts``: 1 / n_i + 1 / n_j <= d^2 for every pair across a target
    boundary, at the fewest slots in all (here found by a one-dimensional search)."""
    from benchmarks.simulate import oracle_counts

    share = np.full((3, 3), 0.5)
    truth = truth_of(share, {0})  # strengths 3, 2, 1: pairs across (0, 1), (0, 2)
    counts = oracle_counts(truth)
    assert counts is not None
    assert 1 / counts[0] + 1 / counts[1] <= 1.0 + 1e-6
    assert 1 / counts[0] + 1 / counts[2] <= 4.0 + 1e-6
    x = np.linspace(0.01, 0.99, 9801)  # x = 1 / n_0, the other two then follow
    best = float(np.min(1 / x + 1 / (1 - x) + 1 / (4 - x)))
    assert counts.sum() == pytest.approx(best, rel=1e-3)
    assert oracle_counts(truth_of(share, set())) is None


def test_the_boundary_report_counts_the_comparisons_across_and_beside_a_boundary() -> None:
    from benchmarks.simulate import Run, boundary_report

    share = np.full((4, 4), 0.5)
    share[1, 2], share[2, 1] = 0.6, 0.4
    truth = truth_of(share, {1})  # strengths 4, 3, 2, 1; boundary between 1 and 2
    compared = np.ones((4, 4)) - np.eye(4)
    compared[1, 2] = compared[2, 1] = 7.0  # 12 comparisons, 7 beside the boundary
    reached = Run("x", judgements=[100], needed=100, compared=compared)
    never = Run("x", judgements=[100], compared=np.zeros((4, 4)))
    lines = boundary_report(truth, {"balanced": [reached, never]}, k=4)
    assert "after 2: win 0.600" in lines[1] and "d 1.000, systems within 2d 4" in lines[1]
    assert "of balanced" in lines[2]
    # across: (0,2), (0,3), (1,2), (1,3) = 10 of 12; beside: 7 of 12; 12 comparisons
    # are 2 judgements of 4 outputs (6 pairs each): 3.5 beside comparisons a judgement
    assert lines[-1].split() == ["balanced", "1", "0.833", "0.583", "3.500"]
