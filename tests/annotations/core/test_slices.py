"""Slice names and conditions (annotations.core.slices)."""

from __future__ import annotations

import pytest

from annotations.core.slices import (
    SliceError,
    attribute_name_check,
    attribute_value_check,
    describe,
    parse_where,
)


@pytest.mark.parametrize("name", ["challenge_set", "domain", "length_bucket", "p2"])
def test_good_names(name: str) -> None:
    assert attribute_name_check(name) == name


@pytest.mark.parametrize("name", ["", "Domain", "2x", "a-b", "a b", "a__b", "x" * 41, "é"])
def test_bad_names_say_what_is_allowed(name: str) -> None:
    with pytest.raises(SliceError, match="not an attribute name"):
        attribute_name_check(name)


def test_values_become_text_and_other_types_are_refused() -> None:
    assert [attribute_value_check("n", v) for v in (3, 2.5, True, " x ")] == [
        "3",
        "2.5",
        "true",
        "x",
    ]
    with pytest.raises(SliceError, match="expected text or a number, found list"):
        attribute_value_check("n", [1])
    with pytest.raises(SliceError, match="longer than 200"):
        attribute_value_check("n", "x" * 201)


def test_where_conditions() -> None:
    assert parse_where(["challenge_set=scramble", "domain = news"]) == {
        "challenge_set": "scramble",
        "domain": "news",
    }
    assert describe({"b": "2", "a": "1"}) == "a=1, b=2" and describe({}) == "all items"
    for bad, message in (
        (["challenge_set"], "write attribute=value"),
        (["=x"], "write attribute=value"),
        (["Bad=x"], "not an attribute name"),
        (["a=1", "a=2"], "given twice"),
    ):
        with pytest.raises(SliceError, match=message):
            parse_where(bad)
