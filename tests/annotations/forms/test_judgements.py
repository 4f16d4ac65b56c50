"""RankME's rules in the task page's form (``annotations.forms.judgements``): whole numbers
of at most 6 digits (or the criterion's limit), and the content checks as fields only
when the criterion asks."""

from __future__ import annotations

import pytest

from annotations.forms.judgements import ScoresForm
from tests.factories import CriterionFactory

pytestmark = pytest.mark.django_db


def _magnitude(raw: str, max_digits: int = 6) -> ScoresForm:
    criterion = CriterionFactory(scale_settings={"standard": 100, "max_digits": max_digits})
    form = ScoresForm({"score_0": raw}, criterion=criterion, letters={0: "A"})
    form.is_valid()
    return form


# -- the number rules ---------------------------------------------------------------------


def test_seven_digits_are_refused_with_a_message_never_cut():
    form = _magnitude("1234567")
    assert not form.is_valid() and 0 not in form.cleaned_scores
    [message] = form.errors["score_0"]
    assert "1234567 has 7 digits" in message and "at most 6 digits" in message
    assert _magnitude("999999").cleaned_scores == {0: 999999.0}
    # Leading zeros count as digits typed: "0000150" is not silently read as 150.
    assert "7 digits" in _magnitude("0000150").errors["score_0"][0]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1e3", "not a whole number"),
        ("12.5", "not a whole number"),
        ("-5", "Enter a number above 0"),  # a sign is not "not a whole number"
        ("1,000", "not a whole number"),
        ("0", "above 0"),
        ("", "Enter a number (100 = as good as the standard)"),
    ],
)
def test_only_whole_positive_numbers_are_accepted(raw, expected):
    form = _magnitude(raw)
    assert not form.is_valid() and form.cleaned_scores == {}
    assert expected in form.errors["score_0"][0]
    assert str(form.errors["score_0"][0]).startswith("Output A: ")


def test_spaces_around_a_number_are_ignored_and_nothing_else_changes():
    assert _magnitude(" 150 ").cleaned_scores == {0: 150.0}
    assert _magnitude("07").cleaned_scores == {0: 7.0}


def test_digits_of_other_scripts_are_read_as_the_number_they_are():
    """A reviewer's phone keyboard typed Arabic-Indic and full-width digits: refused as
    "not a whole number: use digits only"."""
    assert _magnitude("\u0668\u0660").cleaned_scores == {0: 80.0}
    assert _magnitude("\uff11\uff10\uff10").cleaned_scores == {0: 100.0}
    assert _magnitude("\u06f1\u06f2").cleaned_scores == {0: 12.0}  # Persian
    assert "above 0" in _magnitude("\u0660").errors["score_0"][0]


def test_a_very_long_number_is_not_echoed_whole():
    """100,000 digits came back three times in a 315 KB page."""
    (message,) = _magnitude("1" * 100_000).errors["score_0"]
    assert "has 100000 digits" in message and len(str(message)) < 200


def test_the_digit_limit_follows_the_criterion():
    assert "at most 4 digits" in _magnitude("12345", max_digits=4).errors["score_0"][0]


def test_content_checks_are_fields_only_when_the_criterion_asks():
    plain = CriterionFactory()
    assert "check_0" not in ScoresForm({}, criterion=plain, letters={0: "A"}).fields
    criterion = CriterionFactory(content_checks=["missing", "perfect"])
    form = ScoresForm(
        {"score_0": "100", "score_1": "50", "check_0": ["perfect"], "check_1": ["missing"]},
        criterion=criterion,
        letters={0: "A", 1: "B"},
    )
    assert form.is_valid() and form.cleaned_checks == {0: ["perfect"], 1: ["missing"]}
    # RankME: with "perfectly" offered, every output needs a tick
    unticked = ScoresForm(
        {"score_0": "100", "score_1": "50", "check_1": ["missing"]},
        criterion=criterion,
        letters={0: "A", 1: "B"},
    )
    assert not unticked.is_valid() and "check_0" in unticked.errors
    forged = ScoresForm(
        {"score_0": "100", "check_0": ["added"]}, criterion=criterion, letters={0: "A"}
    )
    assert not forged.is_valid() and "check_0" in forged.errors
