"""Bradley-Terry splits a tie half a win each side, and says it claims no tie model."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ranking.stats import _bradley_terry
from ranking.stats._bradley_terry import bradley_terry_fit

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
