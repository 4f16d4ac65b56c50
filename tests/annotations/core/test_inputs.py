"""``annotations.core.inputs``: an E2E meaning representation read as attribute pairs."""

from __future__ import annotations

import pytest

from annotations.core.inputs import attribute_label, mr_attributes


def test_a_meaning_representation_reads_as_labelled_pairs():
    assert mr_attributes(
        " name[The Eagle], eatType[coffee shop], customer rating[5 out of 5] "
    ) == [
        ("name", "The Eagle"),
        ("eat type", "coffee shop"),
        ("customer rating", "5 out of 5"),
    ]


@pytest.mark.parametrize(
    "text", ["", "   ", "A plain sentence.", "name[Cotto] and more", "name[Cotto"]
)
def test_an_input_that_is_no_meaning_representation_reads_as_none(text):
    assert mr_attributes(text) is None


def test_attribute_labels_split_camel_case_and_keep_spaces():
    assert attribute_label("familyFriendly") == "family friendly"
    assert attribute_label(" customer rating ") == "customer rating"
