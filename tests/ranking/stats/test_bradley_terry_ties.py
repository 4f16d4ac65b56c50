"""What Bradley-Terry does with ties is what its documentation says: a tie is half a win
for each side (no tie parameter), and no tie model is claimed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.testing import assert_array_equal

from ranking.stats import _bradley_terry
from ranking.stats._bradley_terry import bradley_terry_fit
from ranking.stats._clusters import ranks_per_run
from ranking.stats._methods import rank
from ranking.stats._pairwise import Comparisons, judgements_to_comparisons

METHODS = Path(__file__).resolve().parents[3] / "docs" / "methods.md"


def test_a_tie_counts_half_a_win_each_side():
    wins = np.array([[0.0, 3.0, 1.0], [1.0, 0.0, 2.0], [0.0, 1.0, 0.0]])
    draws = np.array([[0.0, 2.0, 0.0], [2.0, 0.0, 4.0], [0.0, 4.0, 0.0]])
    np.testing.assert_allclose(
        bradley_terry_fit(wins, draws), bradley_terry_fit(wins + 0.5 * draws), atol=1e-12
    )


def test_the_docstring_and_methods_page_say_ties_are_split_and_claim_no_tie_model():
    doc = " ".join((_bradley_terry.__doc__ or "").split())
    assert "half a win to each side" in doc
    # Rao-Kupper is cited only as a model that is not implemented.
    assert "Rao-Kupper (1967) or Davidson (1970) extensions" in doc
    assert "not* implemented" in doc
    text = METHODS.read_text()
    assert "Bradley-Terry counts a tie as half a win for each system" in text


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


def test_values_apart_by_more_than_the_tolerance_are_not_tied():
    ranks = ranks_per_run(
        np.array([[1.0, 1.0 + 1e-15, 0.5], [1.0, 1.0 + 1e-6, 0.5], [2.0, 2.0, np.nan]])
    )
    assert ranks.tolist() == [[1, 1, 3], [2, 1, 3], [1, 1, 3]]
