"""annotations.core.scoring: the one scores-to-ranks rule, against scipy as the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import rankdata

from annotations.core.scoring import ranks_from_scores, scores_to_ranks

scores = st.lists(
    st.sampled_from([0.0, 1.0, 50.0, 99.5, 100.0, 100.0, 150.0, 1e6]) | st.floats(0, 1e9),
    min_size=1,
    max_size=10,
)


@given(scores, st.booleans())
def test_competition_ranks_equal_scipy_rankdata_min(values, higher_is_better):
    keyed = -np.asarray(values) if higher_is_better else np.asarray(values)
    expected = rankdata(keyed, method="min").astype(np.int64)
    got = scores_to_ranks(values, higher_is_better=higher_is_better)
    assert got.dtype == np.int64
    assert got.tolist() == expected.tolist()


def test_ties_share_the_best_rank_and_the_next_is_skipped():
    assert scores_to_ranks([100, 50, 100, 200]).tolist() == [2, 4, 2, 1]
    assert ranks_from_scores([100, 50, 100, 200]) == [2.0, 4.0, 2.0, 1.0]


def test_refuses_nan_and_more_than_one_dimension():
    with pytest.raises(ValueError, match="NaN"):
        scores_to_ranks([1.0, float("nan")])
    with pytest.raises(ValueError, match="one-dimensional"):
        scores_to_ranks([[1.0, 2.0]])
