"""The slices page's form and its messages (ranking/forms/slices.py)."""

from __future__ import annotations

import pytest
from django.contrib import messages

from ranking.forms.slices import SlicesForm, slices_started_messages
from ranking.services.slices import SlicesStarted
from tests.ranking.sliced_campaign import _sliced


@pytest.mark.django_db
def test_the_form_is_invalid_with_the_choices_error() -> None:
    campaign, criterion = _sliced(10)
    assert SlicesForm({"criterion": criterion.name, "by": "language"}, campaign=campaign).is_valid()
    form = SlicesForm({"criterion": criterion.name, "by": "colour"}, campaign=campaign)
    assert not form.is_valid()
    assert form.non_field_errors() == ["No item of this campaign has the attribute 'colour'."]


def test_the_messages_say_what_started_what_waits_and_when_nothing_was_missing() -> None:
    runs = [object(), object()]
    assert slices_started_messages(SlicesStarted(runs=runs)) == [  # type: ignore[arg-type]
        (messages.SUCCESS, "2 ranking run(s) started; they appear here when done.")
    ]
    refused = SlicesStarted(runs=runs[:1], waiting=2, refusal="Too many.")  # type: ignore[arg-type]
    assert slices_started_messages(refused) == [
        (messages.SUCCESS, "1 ranking run(s) started; they appear here when done."),
        (
            messages.ERROR,
            "2 slice(s) not started yet: Too many. Press the button again once the running "
            "ones are done.",
        ),
    ]
    assert slices_started_messages(SlicesStarted()) == [
        (messages.SUCCESS, "Every slice already has a finished run.")
    ]
