"""Exactly tied systems share their ranks in every run."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_array_equal

from ranking.stats._methods import rank
from ranking.stats._pairwise import Comparisons, judgements_to_comparisons


def _twins() -> Comparisons:
    """Six systems; systems 2 and 3 ("X" and "Y") are always judged together with the
    same score, so every judgement ties them and their data are identical."""
    rng = np.random.default_rng(0)
    strength = [3, 2, 1, 1, 0, -1]
    judgement: list[int] = []
    system: list[int] = []
    score: list[float] = []
    for j in range(150):
        for s in rng.choice([0, 1, 4, 5], size=2, replace=False):
            judgement.append(j)
            system.append(int(s))
            score.append(50 + 10 * strength[s] + rng.normal(0, 15))
        twin = 60 + rng.normal(0, 15)
        judgement += [j, j]
        system += [2, 3]
        score += [twin, twin]
    return judgements_to_comparisons(
        np.array(judgement), np.array(system), np.array(score), n_systems=6
    )


def test_exactly_tied_systems_share_their_ranks_in_every_run():
    """Review: under Bradley-Terry two systems with identical data got identical values
    but different per-run ranks (floating-point noise of the fit, ~1e-16, broke the tie
    one way or the other in each replicate), hence different rank ranges. Values equal
    within a relative 1e-9 now share their rank, as expected wins' exact ties do."""
    c = _twins()
    result = rank("bradley_terry", c, rng=np.random.default_rng(1), runs=200)
    assert np.abs(result.run_values[:, 2] - result.run_values[:, 3]).max() < 1e-12
    assert_array_equal(result.run_ranks[:, 2], result.run_ranks[:, 3])
    assert (result.rank_lo[2], result.rank_hi[2]) == (result.rank_lo[3], result.rank_hi[3])
    ew = rank("expected_wins", c, rng=np.random.default_rng(1), runs=200)
    assert_array_equal(ew.run_ranks[:, 2], ew.run_ranks[:, 3])
    assert_array_equal(result.rank_lo, ew.rank_lo)
    assert_array_equal(result.rank_hi, ew.rank_hi)
