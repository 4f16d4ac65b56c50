"""``pair_counts``: a Bradley-Terry fit's wins and draws per pair, from comparisons."""

from __future__ import annotations

import numpy as np

from ranking.stats import pair_counts
from ranking.stats._pairwise import judgements_to_comparisons


def test_wins_and_draws_per_pair_as_counted_one_by_one():
    rng = np.random.default_rng(4)
    judgement = np.repeat(np.arange(50), 4)
    system = np.concatenate([rng.permutation(5)[:4] for _ in range(50)])
    score = rng.integers(1, 4, 200).astype(float)  # three levels: many draws
    comparisons = judgements_to_comparisons(judgement, system, score, n_systems=5)
    wins, draws = pair_counts(comparisons)
    expected_wins, expected_draws = np.zeros((5, 5)), np.zeros((5, 5))
    for j in range(50):
        s, x = system[4 * j : 4 * j + 4], score[4 * j : 4 * j + 4]
        for a in range(4):
            for b in range(a + 1, 4):
                if x[a] == x[b]:
                    expected_draws[s[a], s[b]] += 1
                    expected_draws[s[b], s[a]] += 1
                else:
                    win, lose = (s[a], s[b]) if x[a] > x[b] else (s[b], s[a])
                    expected_wins[win, lose] += 1
    np.testing.assert_array_equal(wins, expected_wins)
    np.testing.assert_array_equal(draws, expected_draws)
    assert wins.sum() + draws.sum() / 2 == comparisons.n_comparisons == 300
