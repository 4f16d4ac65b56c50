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
