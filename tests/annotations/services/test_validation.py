"""Model validation as refusals per field (annotations/services/validation.py)."""

from __future__ import annotations

import pytest
from django import forms

from annotations.services.criteria import criterion_create
from annotations.services.validation import model_check
from common.errors import DomainError, FieldsRefused
from common.forms import form_refused
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


class _NameForm(forms.Form):
    name = forms.CharField()
    question = forms.CharField()


def test_a_refused_name_is_shown_beside_the_field_without_its_label():
    """The criteria page showed "Name: Enter a valid slug…" beside the name field, and
    the API listed it under no field."""
    campaign = CampaignFactory()
    with pytest.raises(FieldsRefused) as refused:
        criterion_create(campaign=campaign, name="bad name!", scale="slider", question="Q?")
    assert str(refused.value).startswith("Name: Enter a valid")  # the command line's words
    assert refused.value.field == "name"
    assert list(refused.value.field_messages) == ["name"]
    form = _NameForm(data={"name": "bad name!", "question": "q"})
    assert form.is_valid()
    form_refused(form, refused.value)
    assert str(form.errors["name"][0]).startswith("Enter a valid")


def test_several_fields_refused_at_once_each_go_beside_their_own():
    campaign = CampaignFactory.build(slug="bad slug!", name="x" * 500)
    with pytest.raises(FieldsRefused) as refused:
        model_check(instance=campaign)
    assert refused.value.field == ""
    assert {"slug", "name"} <= set(refused.value.field_messages)
    assert all(m[:1].isupper() for m in refused.value.field_messages.values())


def test_a_problem_of_no_one_field_is_named_as_such():
    problems = {"non_field_errors": "these settings cannot work together.", "slots": "too many."}
    refused = FieldsRefused(problems, labels={"slots": "Slots"})
    assert str(refused) == "these settings cannot work together. Slots: too many."
    assert refused.field_messages == {
        "non_field_errors": "These settings cannot work together.",
        "slots": "Too many.",
    }


def test_a_name_taken_meanwhile_is_refused_in_the_services_words(monkeypatch):
    """Two requests adding one criterion at once both pass the name check; the second
    was refused with Django's "Criterion with this Campaign and Name already exists."
    (from the model's unique constraint) instead of the service's sentence."""
    from annotations.services import criteria as criteria_services

    campaign = CampaignFactory()
    criterion_create(campaign=campaign, name="quality", scale="slider", question="Q?")
    # The other request's criterion was not there yet when this one checked the name.
    monkeypatch.setattr(criteria_services, "criterion_by_name", lambda campaign, name: None)
    with pytest.raises(DomainError) as refused:
        criterion_create(campaign=campaign, name="quality", scale="slider", question="Q?")
    assert str(refused.value) == "The campaign already has a criterion 'quality'."
    assert refused.value.field == "name"
