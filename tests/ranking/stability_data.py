"""Run results near the cut and agreeing-but-fragile ones, for the stability messages."""

from __future__ import annotations

import numpy as np

from ranking.stats._result import summarise_runs
from ranking.stats._stability import cluster_stability


def _near_the_cut(runs: int, share: float, seed: int):
    """Three systems; in a ``share`` of the runs the second beats the first. With
    ``share`` near the trim share (2.75% at 200 runs, 0.95) the boundary between them
    rests near the cut; the third is far below."""
    rng = np.random.default_rng(seed)
    values = np.tile([1.0, 0.0, -5.0], (runs, 1))
    flip = rng.random(runs) < share
    values[flip, 0], values[flip, 1] = 0.0, 1.0
    return summarise_runs(
        method="test",
        run_values=values,
        confidence=0.95,
        comparisons=[60, 60, 60],
        n_comparisons=90,
        params={},
    )


# 2. One source for the verdict and its reason ------------------------------------------


def _agreeing_but_fragile():
    for seed in range(20):
        check = cluster_stability(_near_the_cut(200, 0.04, seed), rng=np.random.default_rng(0))
        if check.agree and check.fragile.size:
            return check
    raise AssertionError("no seed gave agreeing halves with a fragile boundary")
