"""The crowd simulator (``ranking.stats._simulate``): seeded, fitted, any task, any scale."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ranking.stats import SCALES, Simulator, fit_simulator, pair_shares


def make(n_systems: int = 6, n_items: int = 80, n_workers: int = 30, **over: Any) -> Simulator:
    rng = np.random.default_rng(123)
    values: dict[str, Any] = {
        "quality": np.linspace(0.6, -0.6, n_systems),
        "difficulty": 0.2 * rng.standard_normal(n_items),
        "interaction": 0.15,
        "judgement_sd": 0.1,
        "offset": 3.6 + 0.2 * rng.standard_normal(n_workers),
        "scale": np.exp(0.2 * rng.standard_normal(n_workers)),
        "noise": np.full(n_workers, 0.2),
        "capped": np.zeros(n_workers, dtype=bool),
        "grid": np.ones(n_workers),
        "weight": np.full(n_workers, 1.0 / n_workers),
        "flat_share": np.zeros(n_workers),
        "flat_value": np.full(n_workers, 100.0),
    }
    values.update(over)
    return Simulator(**values)


def campaign(sim: Simulator, rng: np.random.Generator, units: int, k: int = 5, per_unit: int = 3):
    """``units`` tasks on random items, each judged by ``per_unit`` distinct workers."""
    systems = np.array([rng.permutation(sim.n_systems)[:k] for _ in range(units)])
    items = rng.integers(sim.n_items, size=units)
    workers = np.array([rng.permutation(sim.n_workers)[:per_unit] for _ in range(units)])
    systems = np.repeat(systems, per_unit, axis=0)
    items = np.repeat(items, per_unit)
    workers = workers.ravel()
    scores = sim.answer(
        systems, rng=rng, items=items, workers=workers, outputs=sim.draw_outputs(rng)
    )
    return systems, items, workers, scores


def test_same_seed_same_answers_other_seed_other_answers():
    sim = make()
    tasks = np.array([[0, 1, 2, 3, 4], [5, 4, 3, 2, 1]])
    for scale in SCALES:
        a = sim.answer(tasks, rng=np.random.default_rng(7), scale=scale)
        b = sim.answer(tasks, rng=np.random.default_rng(7), scale=scale)
        np.testing.assert_array_equal(a, b)
    c = sim.answer(np.tile(tasks, (50, 1)), rng=np.random.default_rng(8))
    d = sim.answer(np.tile(tasks, (50, 1)), rng=np.random.default_rng(9))
    assert not np.array_equal(c, d)


@pytest.mark.parametrize("scale", SCALES)
def test_any_task_on_every_scale(scale):
    sim = make(n_systems=7, capped=np.ones(30, dtype=bool), grid=np.full(30, 10.0))
    rng = np.random.default_rng(1)
    tasks = np.array([[6, 0, -1, -1], [1, 2, 3, 4], [5, 3, 0, -1]])
    x = sim.answer(np.tile(tasks, (200, 1)), rng=rng, scale=scale)
    present = np.tile(tasks, (200, 1)) >= 0
    assert np.all(np.isnan(x[~present]))
    v = x[present]
    if scale == "rankme":
        assert v.min() >= 1 and v.max() <= 100  # capped workers: the standard on top
        assert np.all(np.mod(v[v > 1], 10) == 0)  # rounded to the worker's grid
    elif scale == "slider":
        assert v.min() >= 0 and v.max() <= 100 and np.all(v == np.round(v))
    else:
        assert set(np.unique(v)) <= {1.0, 2.0, 3.0, 4.0, 5.0}
        assert len(set(np.unique(v))) >= 3
    # ties occur (coarse grid, cap), as with real workers
    if scale == "rankme":
        assert np.mean(x[:, 0] == x[:, 1]) > 0.05


def test_a_task_needs_distinct_known_systems():
    sim = make()
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="distinct"):
        sim.answer(np.array([[1, 1, 2]]), rng=rng)
    with pytest.raises(ValueError, match="system indices"):
        sim.answer(np.array([[1, 99]]), rng=rng)
    with pytest.raises(ValueError, match="scale"):
        sim.answer(np.array([[1, 2]]), rng=rng, scale="stars")


def test_better_systems_win_more_and_shares_are_symmetric():
    sim = make(n_systems=4)
    share, draws = pair_shares(sim, rng=np.random.default_rng(3), judgements=4000, k=4)
    np.testing.assert_allclose(share + share.T, 1.0, atol=1e-12)
    np.testing.assert_allclose(draws, draws.T)
    assert share[0, 1] > 0.5 and share[0, 3] > share[0, 1] and share[2, 3] > 0.5


def test_fit_recovers_known_parameters():
    truth = make(
        n_systems=6,
        n_items=60,
        n_workers=40,
        flat_share=np.full(40, 0.2),
        capped=np.arange(40) % 2 == 0,
    )
    systems, items, workers, scores = campaign(truth, np.random.default_rng(11), units=1500)
    fitted = fit_simulator(
        judgement_item=items, judgement_worker=workers, systems=systems, scores=scores
    )
    # qualities: the same spacing (the model is identified up to a shift)
    np.testing.assert_allclose(fitted.quality, truth.quality - truth.quality.mean(), atol=0.12)
    assert np.corrcoef(fitted.quality, truth.quality)[0, 1] > 0.98
    assert abs(np.average(fitted.flat_share, weights=fitted.weight) - 0.2) < 0.05
    np.testing.assert_array_equal(fitted.capped, truth.capped)
    assert np.median(fitted.noise) == pytest.approx(0.2, rel=0.35)
    assert np.corrcoef(fitted.offset, truth.offset)[0, 1] > 0.8
    # the output sd is read from uncensored residuals only: right order of size
    assert 0.05 < fitted.interaction < 0.3


def test_fit_is_deterministic_and_answers_its_own_tasks():
    truth = make()
    systems, items, workers, scores = campaign(truth, np.random.default_rng(2), units=300)
    a = fit_simulator(
        judgement_item=items, judgement_worker=workers, systems=systems, scores=scores
    )
    b = fit_simulator(
        judgement_item=items, judgement_worker=workers, systems=systems, scores=scores
    )
    np.testing.assert_array_equal(a.quality, b.quality)
    again = a.answer(systems, rng=np.random.default_rng(0), items=items, workers=workers)
    assert again.shape == scores.shape and np.all(again >= 1)


def test_fit_refuses_non_positive_scores():
    with pytest.raises(ValueError, match="positive"):
        fit_simulator(
            judgement_item=[0],
            judgement_worker=[0],
            systems=[[0, 1]],
            scores=[[0.0, 10.0]],
        )


def test_with_interaction_keeps_each_workers_total_variance():
    sim = make()
    other = sim.with_interaction(0.1)
    before = sim.noise**2 + sim.scale**2 * sim.interaction**2
    after = other.noise**2 + other.scale**2 * other.interaction**2
    np.testing.assert_allclose(after, before)
    with pytest.raises(ValueError):
        sim.with_quality([np.nan, 1.0])
    assert sim.with_quality([1.0, 0.0]).n_systems == 2


def test_a_stream_answers_a_request_alike_whatever_else_the_task_shows():
    """Common random numbers: request j's score for system s depends on the stream's
    j-th row and s, not on the task's other systems or their order."""
    sim = make(n_systems=6, flat_share=np.full(30, 0.3))
    outputs = sim.draw_outputs(np.random.default_rng(0))
    stream = sim.draw_stream(np.random.default_rng(1), 400)
    a = sim.answer_stream(np.tile([[0, 1, 2, 3]], (200, 1)), stream, first=100, outputs=outputs)
    b = sim.answer_stream(np.tile([[5, 2, 0, 4]], (200, 1)), stream, first=100, outputs=outputs)
    np.testing.assert_array_equal(a[:, 0], b[:, 2])  # system 0
    np.testing.assert_array_equal(a[:, 2], b[:, 1])  # system 2
    assert not np.array_equal(a[:, 1], b[:, 0])  # other systems, other scores
    # flat judgements are flat in both tasks
    flat_a = a.max(axis=1) == a.min(axis=1)
    assert 0.15 < flat_a.mean() < 0.5 and np.all(b[flat_a].max(axis=1) == b[flat_a].min(axis=1))
    other = sim.draw_stream(np.random.default_rng(2), 400)
    c = sim.answer_stream(np.tile([[0, 1, 2, 3]], (200, 1)), other, first=100, outputs=outputs)
    assert np.mean(a != c) > 0.3
    # items run through permutations: every item once before any twice
    assert sorted(stream.item[:80].tolist()) == sorted(list(range(80)))
    with pytest.raises(ValueError, match="400 requests"):
        sim.answer_stream([[0, 1]], stream, first=400, outputs=outputs)
