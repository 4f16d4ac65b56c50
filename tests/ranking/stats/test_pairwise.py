"""Scores to ranks, judgements to pairwise comparisons."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from ranking.stats import scores_to_ranks
from ranking.stats._pairwise import Comparisons, judgements_to_comparisons, pair_index


def test_scores_to_ranks_competition_ties():
    assert_array_equal(scores_to_ranks([100, 50, 100, 200]), [2, 4, 2, 1])
    assert_array_equal(scores_to_ranks([3, 1, 2], higher_is_better=False), [3, 1, 2])
    assert_array_equal(scores_to_ranks([7, 7, 7]), [1, 1, 1])


def test_one_judgement_gives_all_pairs_with_draws():
    # systems 0..3 scored 90, 100, 90, 10 -> 6 comparisons, one draw (0 vs 2)
    c = judgements_to_comparisons([5, 5, 5, 5], [0, 1, 2, 3], [90, 100, 90, 10], n_systems=4)
    assert len(c) == 6
    assert c.n_judgements == 1
    got = {
        (int(w), int(lo), bool(d)) for w, lo, d in zip(c.winners, c.losers, c.draws, strict=True)
    }
    assert got == {
        (1, 0, False),
        (0, 2, True),
        (0, 3, False),
        (1, 2, False),
        (1, 3, False),
        (2, 3, False),
    }
    assert_array_equal(c.judgement, np.zeros(6))
    assert_array_equal(c.per_system(), [3, 3, 3, 3])


def test_order_is_judgement_then_entry_order():
    c = judgements_to_comparisons([9, 9, 9, 2, 2], [0, 1, 2, 1, 0], [1, 2, 3, 5, 5], n_systems=3)
    # judgement id 2 sorts first; its draw keeps the earlier entry (system 1) as winner
    assert_array_equal(c.judgement, [0, 1, 1, 1])
    assert_array_equal(c.winners, [1, 1, 2, 2])
    assert_array_equal(c.losers, [0, 0, 0, 1])
    assert_array_equal(c.draws, [True, False, False, False])


def test_merged_output_counts_for_each_system_but_not_against_itself():
    # systems 0 and 1 produced the same output (slot 0), shown once and scored 80;
    # system 2 (slot 1) scored 60
    c = judgements_to_comparisons([0, 0, 0], [0, 1, 2], [80, 80, 60], slot=[0, 0, 1])
    assert len(c) == 2
    assert_array_equal(np.sort(c.winners), [0, 1])
    assert_array_equal(c.losers, [2, 2])
    assert not c.draws.any()


def test_same_system_twice_is_not_compared_with_itself():
    c = judgements_to_comparisons([0, 0, 0], [1, 1, 0], [5, 3, 4], n_systems=2)
    assert len(c) == 2
    assert_array_equal(c.winners, [1, 0])
    assert_array_equal(c.losers, [0, 1])


def test_ranks_instead_of_scores():
    by_rank = judgements_to_comparisons([0, 0, 0], [0, 1, 2], [3, 1, 1], higher_is_better=False)
    by_score = judgements_to_comparisons([0, 0, 0], [0, 1, 2], [1, 3, 3])
    assert_array_equal(by_rank.winners, by_score.winners)
    assert_array_equal(by_rank.draws, by_score.draws)


def test_single_output_judgements_are_kept_but_yield_nothing():
    c = judgements_to_comparisons([0, 1, 1], [0, 0, 1], [5, 5, 4], n_systems=2)
    assert c.n_judgements == 2
    assert_array_equal(c.judgement, [1])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"winners": [0], "losers": [0]}, "itself"),
        ({"winners": [0], "losers": [3]}, "system indices"),
        ({"winners": [0, 1], "losers": [1]}, "one length"),
    ],
)
def test_comparisons_validate(kwargs, message):
    base: dict[str, Any] = {"n_systems": 3, "draws": [False], "judgement": [0], "n_judgements": 1}
    base.update({k: np.array(v) for k, v in kwargs.items()})
    if len(base["winners"]) == 2:
        base["draws"] = [False, False]
        base["judgement"] = [0, 0]
    with pytest.raises(ValueError, match=message):
        Comparisons(**base)


def test_comparisons_are_read_only():
    c = judgements_to_comparisons([0, 0], [0, 1], [1, 2])
    with pytest.raises(ValueError):
        c.winners[0] = 1


def test_pair_index_groups_by_unordered_pair_in_data_order():
    c = Comparisons(
        n_systems=3,
        winners=np.array([0, 1, 2, 0, 1]),
        losers=np.array([1, 0, 0, 2, 0]),
        draws=np.zeros(5, dtype=bool),
        judgement=np.array([0, 0, 1, 1, 2]),
        n_judgements=3,
    )
    index = pair_index(c)
    assert index.count[0, 1] == index.count[1, 0] == 3
    assert index.count[0, 2] == 2
    assert index.count[1, 2] == 0
    first = index.start[0, 1]
    assert_array_equal(index.order[first : first + 3], [0, 1, 4])
    first = index.start[2, 0]
    assert_array_equal(index.order[first : first + 2], [2, 3])
