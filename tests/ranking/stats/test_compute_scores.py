"""``ranking.stats.compute`` (ranking/stats/_compute.py) checks its parameters and computes from scores."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from ranking.stats import check_parameters, compute


def test_api_checks_and_computes_from_scores():
    check_parameters("wmt14", {"sigma0": 0.5, "draw_probability": 0.25})
    with pytest.raises(ValueError):
        check_parameters("wmt14", {"sigma0": "wide"})
    with pytest.raises(ValueError):
        check_parameters("bradley_terry", {"draws_rule": "half"})
    n = 30
    out = compute(
        method="wmt14",
        n_systems=3,
        judgement=np.repeat(np.arange(n), 3),
        system=np.tile([2, 0, 1], n),
        score=np.tile([100.0, 50.0, 10.0], n),
        slot=np.tile([0, 1, 2], n),
        runs=40,  # the fewest whose 95% ranges keep 95% (stats.min_runs_for)
        parameters={"sigma0": 0.5},
        rng=np.random.default_rng(1),
    )
    assert_array_equal(out.cluster, [2, 3, 1])
    assert out.n_comparisons == 90
    assert_array_equal(out.comparisons, [60, 60, 60])
    assert isinstance(out.stability["note"], str) and out.stability["agree"] is True
