"""Krippendorff's alpha against the `krippendorff` package (the oracle)."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from numpy.testing import assert_allclose

from annotations.core.agreement import krippendorff_alpha, preference, reliability_matrix

# Krippendorff (2011), the worked example with missing values (4 coders x 12 units).
KRIPPENDORFF_2011 = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, np.nan, np.nan, np.nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, np.nan, 3],
        [np.nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, np.nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, np.nan],
    ]
)


@pytest.mark.parametrize(
    ("level", "published"),
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_published_example(level, published):
    got = krippendorff_alpha(KRIPPENDORFF_2011, level=level)
    # The paper prints three decimals.
    assert_allclose(got, published, atol=5e-4)
    assert_allclose(
        got, krippendorff.alpha(KRIPPENDORFF_2011, level_of_measurement=level), rtol=1e-10
    )


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_random_preferences_match_oracle(seed, level):
    rng = np.random.default_rng(seed)
    data = rng.choice([-1.0, 0.0, 1.0], size=(6, 40), p=[0.4, 0.2, 0.4])
    data[rng.random(data.shape) < 0.4] = np.nan
    assert_allclose(
        krippendorff_alpha(data, level=level),
        krippendorff.alpha(data, level_of_measurement=level),
        rtol=1e-9,
        atol=1e-12,
    )


@pytest.mark.parametrize("seed", range(8))
def test_random_magnitude_scores_match_oracle(seed):
    rng = np.random.default_rng(100 + seed)
    truth = rng.lognormal(4.5, 0.6, size=50)
    data = truth[None, :] * rng.lognormal(0, 0.3, size=(5, 50))
    data = np.round(data)
    data[rng.random(data.shape) < 0.5] = np.nan
    for level in ("interval", "ratio"):
        assert_allclose(
            krippendorff_alpha(data, level=level),
            krippendorff.alpha(data, level_of_measurement=level),
            rtol=1e-9,
        )


def test_perfect_agreement_is_one_and_no_pairs_is_nan():
    data = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    assert krippendorff_alpha(data, level="interval") == pytest.approx(1.0)
    lonely = np.array([[1.0, np.nan], [np.nan, 2.0]])
    assert np.isnan(krippendorff_alpha(lonely))


def test_reliability_matrix_from_triples():
    matrix, coders, units = reliability_matrix(
        [("w1", "u1", 1), ("w2", "u1", -1), ("w1", "u2", 0), ("w1", "u1", 5)]
    )
    assert coders == ["w1", "w2"]
    assert units == ["u1", "u2"]
    assert matrix[0, 0] == 1  # the first value of a repeated cell wins
    assert matrix[1, 0] == -1
    assert np.isnan(matrix[1, 1])
    assert preference(100, 50) == 1
    assert preference(50, 50) == 0
    assert preference(1, 50) == -1


def test_pairwise_kappa_worked_by_hand() -> None:
    """Two judges of task t agree on one of two pairs: P(A) = 1/2. Preferences given:
    +1, 0, +1, -1, so P(E) = 1/4 + 1/16 + 1/16 = 3/8 and kappa = (1/2 - 3/8) / (5/8)."""
    import math

    from annotations.core.agreement import pairwise_kappa

    judged = [("t", "A", {"p1": 1, "p2": 0}), ("t", "B", {"p1": 1, "p2": -1})]
    inter = pairwise_kappa(judged, intra=False)
    assert (inter.comparisons, inter.observed, inter.chance) == (2, 0.5, 0.375)
    assert inter.kappa == (0.5 - 0.375) / 0.625
    # No judge judged t twice: intra-annotator kappa is undefined, not zero.
    intra = pairwise_kappa(judged, intra=True)
    assert intra.comparisons == 0 and math.isnan(intra.kappa)
    # The same judge twice on t, agreeing on everything: kappa 1.
    again = [*judged, ("t", "A", {"p1": 1, "p2": 0})]
    assert pairwise_kappa(again, intra=True).kappa == 1.0
    # Judgements of different tasks are never compared.
    apart = [("t", "A", {"p1": 1}), ("u", "B", {"p1": 1})]
    assert pairwise_kappa(apart, intra=False).comparisons == 0
