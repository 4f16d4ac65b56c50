"""Degraded copies for attention checks (pure, seeded)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotations.core.degrade import METHODS, clauses_of, degrade

TEXT = "Cotto is a coffee shop near The Bakers, and it serves Italian food. It is cheap."


@pytest.mark.parametrize("method", METHODS)
def test_each_method_changes_the_text(method):
    copy = degrade(TEXT, rng=np.random.default_rng(0), method=method)
    assert copy.method == method
    assert copy.text != TEXT


def test_shuffle_keeps_the_words_drop_loses_some_repeat_adds_some():
    rng = np.random.default_rng(5)
    assert sorted(degrade(TEXT, rng=rng, method="shuffle").text.split()) == sorted(TEXT.split())
    assert len(degrade(TEXT, rng=rng, method="drop").text.split()) < len(TEXT.split())
    assert len(degrade(TEXT, rng=rng, method="repeat").text.split()) > len(TEXT.split())


def test_seeded():
    a = degrade(TEXT, rng=np.random.default_rng(42))
    b = degrade(TEXT, rng=np.random.default_rng(42))
    assert a == b


def test_clauses():
    assert clauses_of("A is B, and C is D. E.") == ["A is B,", "and C is D.", "E."]


def test_errors():
    with pytest.raises(ValueError):
        degrade("   ", rng=np.random.default_rng(0))
    with pytest.raises(ValueError):
        degrade(TEXT, rng=np.random.default_rng(0), method="nope")


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=80).filter(lambda t: t.split()), st.integers(0, 2**32))
def test_always_differs(text, seed):
    copy = degrade(text, rng=np.random.default_rng(seed))
    assert " ".join(copy.text.split()) != " ".join(text.split())


def test_an_unnamed_degradation_is_never_an_obvious_scramble():
    """A check must look like the worker's other tasks: left to choose, ``degrade`` drops
    or repeats a clause (caught by reading), never scrambles the words."""
    import numpy as np

    from annotations.core.degrade import degrade

    text = "Cotto is a coffee shop near The Bakers, and it serves French food."
    methods = {degrade(text, rng=np.random.default_rng(seed)).method for seed in range(50)}
    assert methods == {"drop", "repeat"}
    # asked for by name, it still scrambles
    assert degrade(text, rng=np.random.default_rng(0), method="shuffle").method == "shuffle"


@pytest.mark.parametrize("seed", range(20))
def test_a_dropped_clause_leaves_the_sentence_begun_and_ended_as_before(seed):
    # A copy ending in a comma or starting in lower case stands out at a glance.
    text = "Cotto is a pub near the river, it serves Italian food, and it is cheap."
    copy = degrade(text, rng=np.random.default_rng(seed), method="drop").text
    assert copy != text
    assert copy[0].isupper(), copy
    assert copy.endswith("."), copy


@pytest.mark.parametrize("seed", range(20))
def test_a_tidied_drop_still_counts_as_missing_content(seed):
    from annotations.core.degrade import drops_content

    text = "Cotto is a pub near the river, it serves Italian food, and it is cheap."
    copy = degrade(text, rng=np.random.default_rng(seed), method="drop").text
    assert drops_content(text, copy)
