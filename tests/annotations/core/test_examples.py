"""The worked example generated from a magnitude criterion's standard."""

from __future__ import annotations

import numpy as np

from annotations.core.degrade import drops_content
from annotations.core.examples import worked_example

STANDARD = "Cotto is a coffee shop near The Bakers, and it serves Italian food."


def test_the_example_scores_the_standard_and_two_worse_copies_of_it() -> None:
    rows = worked_example(
        standard_text=STANDARD,
        standard=100,
        content_checks=["added", "missing", "perfect"],
        rng=np.random.default_rng(3),
    )
    assert [(r.reason, r.score) for r in rows] == [("same", 100), ("missing", 70), ("repeated", 90)]
    assert rows[0].text == STANDARD
    assert drops_content(STANDARD, rows[1].text)
    assert len(rows[2].text.split()) > len(STANDARD.split())
    assert [r.checks for r in rows] == [("perfect",), ("missing",), ("perfect",)]


def test_scores_follow_the_standard_and_only_offered_checks_are_ticked() -> None:
    rows = worked_example(
        standard_text=STANDARD, standard=50, content_checks=[], rng=np.random.default_rng(0)
    )
    assert [r.score for r in rows] == [50, 35, 45]
    assert all(r.checks == () for r in rows)


def test_the_same_seed_gives_the_same_example() -> None:
    a = worked_example(
        standard_text=STANDARD, standard=100, content_checks=[], rng=np.random.default_rng(9)
    )
    b = worked_example(
        standard_text=STANDARD, standard=100, content_checks=[], rng=np.random.default_rng(9)
    )
    assert a == b


def test_a_one_clause_standard_gets_the_standard_and_a_copy_with_words_left_out() -> None:
    """The walk-through: E2E standards are often one clause, and the example vanished."""
    text = "Cotto is a family friendly coffee shop in the city centre."
    rows = worked_example(
        standard_text=text, standard=100, content_checks=["missing"], rng=np.random.default_rng(2)
    )
    assert [(r.reason, r.score) for r in rows] == [("same", 100), ("missing", 70)]
    assert drops_content(text, rows[1].text)


def test_no_example_from_a_standard_of_a_few_words() -> None:
    for text in ("", "   ", "Cotto.", "Cotto serves coffee"):
        assert (
            worked_example(
                standard_text=text, standard=100, content_checks=[], rng=np.random.default_rng(1)
            )
            == []
        )


def test_a_one_clause_standard_loses_its_last_phrase_not_a_run_from_its_middle() -> None:
    """A reviewer saw "Blue Spice is a in the city centre.": a run of words cut from the
    middle, garbled rather than missing information."""
    text = "Blue Spice is a pub in the city centre."
    for seed in range(20):
        rows = worked_example(
            standard_text=text, standard=100, content_checks=[], rng=np.random.default_rng(seed)
        )
        assert [(r.reason, r.text) for r in rows] == [
            ("same", text),
            ("missing", "Blue Spice is a pub."),
        ]
    # no trailing phrase to lose: no copy, and a standard alone is no example
    assert (
        worked_example(
            standard_text="Cotto is a brilliant coffee shop.",
            standard=100,
            content_checks=[],
            rng=np.random.default_rng(0),
        )
        == []
    )


def test_a_criterion_that_hides_the_input_shows_no_copy_with_information_left_out() -> None:
    """Naturalness hides the input: its example spoke of information left out, which the
    worker cannot see and is not asked about. It keeps the standard and the copy with a
    clause said twice."""
    rows = worked_example(
        standard_text=STANDARD,
        standard=100,
        content_checks=[],
        rng=np.random.default_rng(3),
        input_shown=False,
    )
    assert [r.reason for r in rows] == ["same", "repeated"]
    one_clause = worked_example(
        standard_text="Blue Spice is a pub in the city centre.",
        standard=100,
        content_checks=[],
        rng=np.random.default_rng(3),
        input_shown=False,
    )
    assert one_clause == []
