"""``bt_normal``: Bradley-Terry strengths with rank ranges from their normal
approximation (the adaptive design's refit, and the simulator's)."""

from __future__ import annotations

import numpy as np

from ranking.stats import BT_NORMAL_METHOD, bt_normal
from ranking.stats._bradley_terry import bradley_terry_fit
from ranking.stats._clusters import trim_count

WINS = np.array(
    [
        [0.0, 30.0, 40.0, 45.0],
        [20.0, 0.0, 28.0, 40.0],
        [10.0, 22.0, 0.0, 30.0],
        [5.0, 10.0, 20.0, 0.0],
    ]
)
DRAWS = np.array(
    [
        [0.0, 4.0, 0.0, 2.0],
        [4.0, 0.0, 6.0, 0.0],
        [0.0, 6.0, 0.0, 8.0],
        [2.0, 0.0, 8.0, 0.0],
    ]
)


def _information(wins: np.ndarray, draws: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """The Bradley-Terry Fisher information written out pair by pair (an oracle)."""
    n = theta.shape[0]
    info = np.zeros((n, n))
    for a in range(n):
        for b in range(n):
            if a == b:
                continue
            total = wins[a, b] + wins[b, a] + draws[a, b]
            p = 1.0 / (1.0 + np.exp(theta[b] - theta[a]))
            info[a, b] -= total * p * (1 - p)
            info[a, a] += total * p * (1 - p)
    return info


def test_the_values_are_the_fit_and_the_spread_its_normal_approximation():
    normals = np.random.default_rng(0).standard_normal((40_000, 4))
    result = bt_normal(WINS, DRAWS, normals)
    theta = bradley_terry_fit(WINS, DRAWS)
    np.testing.assert_allclose(result.value, theta, atol=1e-12)
    # the centred strengths' covariance: the information's pseudo-inverse
    expected = np.sqrt(np.diag(np.linalg.pinv(_information(WINS, DRAWS, theta))))
    np.testing.assert_allclose(result.spread, expected, rtol=0.02)  # 40,000 draws
    assert result.method == BT_NORMAL_METHOD
    assert result.n_runs == 40_000 and result.confidence == 0.95
    np.testing.assert_array_equal(result.comparisons, (WINS + WINS.T + DRAWS).sum(axis=1))
    assert result.n_comparisons == int(WINS.sum() + DRAWS.sum() / 2)


def test_the_same_counts_and_normals_give_the_same_result():
    normals = np.random.default_rng(1).standard_normal((1000, 4))
    one, two = bt_normal(WINS, DRAWS, normals), bt_normal(WINS.copy(), DRAWS.copy(), normals)
    for name in ("value", "spread", "rank_lo", "rank_hi", "cluster"):
        np.testing.assert_array_equal(getattr(one, name), getattr(two, name))


def test_the_ranges_cover_the_confidence_asked_for():
    """1,000 draws at 95% trim 25 a side (95%); WMT14's 64 runs trimmed 2 (93.75%)."""
    assert trim_count(1000, 0.95) == 25 and trim_count(64, 0.95) == 2
    normals = np.random.default_rng(2).standard_normal((1000, 4))
    for confidence in (0.95, 0.8):
        result = bt_normal(WINS, DRAWS, normals, confidence=confidence)
        inside = (result.run_ranks >= result.rank_lo) & (result.run_ranks <= result.rank_hi)
        assert np.all(inside.mean(axis=0) >= confidence)
        assert result.confidence == confidence


def test_clear_differences_are_clusters_and_level_systems_share_one():
    wins = np.array([[0.0, 500.0, 500.0], [100.0, 0.0, 300.0], [100.0, 300.0, 0.0]])
    result = bt_normal(wins, np.zeros((3, 3)), np.random.default_rng(3).standard_normal((1000, 3)))
    assert result.cluster.tolist() == [1, 2, 2]
    assert result.rank_lo.tolist() == [1, 2, 2] and result.rank_hi.tolist() == [1, 3, 3]
