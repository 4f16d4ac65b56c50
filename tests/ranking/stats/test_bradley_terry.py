"""Bradley-Terry (ranking/stats/_bradley_terry.py): the closed form, finite for an
unbeaten system, planted strengths recovered."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose

from ranking.stats._bradley_terry import bradley_terry_fit


def test_bradley_terry_two_systems_closed_form():
    # 3 wins to 1: theta_0 - theta_1 = log 3; a draw counts half a win for both
    theta = bradley_terry_fit(np.array([[0, 3], [1, 0]]))
    assert theta[0] - theta[1] == pytest.approx(math.log(3), abs=1e-5)
    assert theta.sum() == pytest.approx(0, abs=1e-12)
    with_draws = bradley_terry_fit(np.array([[0, 2], [0, 0]]), np.array([[0, 2], [2, 0]]))
    assert_allclose(with_draws, theta, atol=1e-9)


def test_bradley_terry_stays_finite_for_an_unbeaten_system():
    theta = bradley_terry_fit(np.array([[0, 5, 5], [0, 0, 3], [0, 1, 0]]))
    assert np.all(np.isfinite(theta)) and theta[0] > 5


def test_bradley_terry_recovers_planted_strengths():
    rng = np.random.default_rng(0)
    truth = np.array([1.0, 0.5, 0.0, -0.3, -1.2])
    wins = np.zeros((5, 5))
    for _ in range(40_000):
        i, j = rng.choice(5, 2, replace=False)
        if rng.random() < 1 / (1 + math.exp(-(truth[i] - truth[j]))):
            wins[i, j] += 1
        else:
            wins[j, i] += 1
    assert_allclose(bradley_terry_fit(wins), truth - truth.mean(), atol=0.05)


# Warm-started replicates: chord steps with one Hessian, Newton for the rest -------------


def _replicates(n_systems: int, comparisons: int, runs: int, seed: int):
    rng = np.random.default_rng(seed)
    q = np.linspace(2.0, -2.0, n_systems)
    a = rng.integers(0, n_systems, comparisons)
    b = (a + rng.integers(1, n_systems, comparisons)) % n_systems
    a_wins = rng.random(comparisons) < 1 / (1 + np.exp(-(q[a] - q[b])))
    wins = np.zeros((n_systems, n_systems))
    np.add.at(wins, (np.where(a_wins, a, b), np.where(a_wins, b, a)), 1)
    full = bradley_terry_fit(wins)
    reps = np.stack([rng.poisson(wins) for _ in range(runs)]).astype(float)
    return full, reps


@pytest.mark.parametrize(
    ("n_systems", "comparisons"),
    [(21, 20_000), (40, 4_000), (8, 40), (30, 120)],  # rich data, then thin data
)
def test_chord_steps_reach_the_newton_fit(n_systems, comparisons, monkeypatch):
    from ranking.stats import _bradley_terry

    full, reps = _replicates(n_systems, comparisons, runs=24, seed=n_systems)
    chord = bradley_terry_fit(reps, start=full)
    monkeypatch.setattr(_bradley_terry, "CHORD_ITER", 0)  # Newton's method alone
    newton = bradley_terry_fit(reps, start=full)
    assert_allclose(chord, newton, atol=1e-8, rtol=0)


def test_a_replicate_the_chord_cannot_take_goes_to_newton():
    """A replicate far from the data's fit (a system that won everything in it) makes the
    chord's steps grow: it starts again from the data's fit under Newton's method."""
    full, reps = _replicates(6, 600, runs=3, seed=2)
    reps[1, 0, :] += 400.0  # system 0 beats everyone 400 more times in replicate 1
    got = bradley_terry_fit(reps, start=full)
    for r in range(3):
        assert_allclose(got[r], bradley_terry_fit(reps[r]), atol=1e-8, rtol=0)
