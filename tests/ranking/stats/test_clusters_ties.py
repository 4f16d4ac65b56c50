"""Values apart by more than the tolerance are not tied."""

from __future__ import annotations

import numpy as np

from ranking.stats._clusters import ranks_per_run


def test_values_apart_by_more_than_the_tolerance_are_not_tied():
    ranks = ranks_per_run(
        np.array([[1.0, 1.0 + 1e-15, 0.5], [1.0, 1.0 + 1e-6, 0.5], [2.0, 2.0, np.nan]])
    )
    assert ranks.tolist() == [[1, 1, 3], [2, 1, 3], [1, 1, 3]]
