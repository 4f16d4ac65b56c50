"""Expected wins (ranking/stats/_expected_wins.py), by hand."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from ranking.stats._expected_wins import expected_wins_scores


def test_expected_wins_by_hand():
    wins = np.array([[0, 3, 2], [1, 0, 0], [0, 4, 0]], dtype=float)
    draws = np.array([[0, 0, 2], [0, 0, 0], [2, 0, 0]], dtype=float)
    # exclude draws: s0 = (3/4 + 2/2) / 2, s1 = (1/4 + 0/4) / 2, s2 = (0/2 + 4/4) / 2
    assert_allclose(expected_wins_scores(wins, draws), [0.875, 0.125, 0.5])
    # half: s0 = (3/4 + 3/4) / 2, s1 = 0.125, s2 = (1/4 + 1) / 2
    assert_allclose(expected_wins_scores(wins, draws, draws_rule="half"), [0.75, 0.125, 0.625])
    # a system without usable comparisons gets 0.5
    assert expected_wins_scores(np.zeros((2, 2)), np.zeros((2, 2)))[0] == 0.5
