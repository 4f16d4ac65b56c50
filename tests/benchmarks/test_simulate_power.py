"""The simulator's power check (benchmarks/simulate.py ``power``) reports where the
separation rate crosses 80%, never the edge of its grid as if it were a crossing."""

from __future__ import annotations

import math

import numpy as np

from benchmarks.simulate import crossing


def test_the_crossing_is_interpolated_on_log_size() -> None:
    grid = np.array([1000, 2000, 4000])
    # 45% at 1,000 and 82.5% at 2,000: 80% at 2,000 x 2^(-(0.025/0.375)) ~ 1,910.
    found = crossing(grid, np.array([0.45, 0.825, 0.95]), 0.8)
    assert math.isclose(found, 1000 * 2 ** ((0.8 - 0.45) / 0.375), rel_tol=1e-9)


def test_a_rate_already_there_at_the_lowest_size_is_no_crossing() -> None:
    """The 20-system figure was once the grid's lowest size (0.25 x the prediction)
    reported as the simulated size; it is now NaN, for the caller to widen the grid."""
    assert math.isnan(crossing(np.array([3790, 5000]), np.array([0.825, 0.9]), 0.8))
    assert crossing(np.array([100, 200]), np.array([0.1, 0.5]), 0.8) == float("inf")
