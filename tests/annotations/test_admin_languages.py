"""The admin checks a campaign's languages, quotas and translations before saving."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.contrib.auth.models import User
from django.test import RequestFactory

from annotations.models import Campaign, Criterion
from tests.factories import CampaignFactory, CriterionFactory

pytestmark = pytest.mark.django_db


def _form(model, instance, **changes):
    admin = site._registry[model]
    request = RequestFactory().get("/")
    request.user = User(is_superuser=True, is_staff=True)
    form_class = admin.get_form(request, instance)
    data = {**form_class(instance=instance).initial, **changes}
    data = {k: v for k, v in data.items() if v is not None}
    for name, field in form_class.base_fields.items():
        if (
            name in data
            and field.__class__.__name__ == "JSONField"
            and not isinstance(data[name], str)
        ):
            import json

            data[name] = json.dumps(data[name])
    return form_class(data=data, instance=instance)


def test_campaign_languages_are_normalised_and_bad_ones_refused() -> None:
    campaign = CampaignFactory()
    form = _form(Campaign, campaign, languages='["EN", "de_AT", "de-AT"]')
    form.is_valid()
    assert "languages" not in form.errors
    assert form.cleaned_data["languages"] == ["en", "de-AT"]
    form = _form(Campaign, campaign, languages='["en", "xx"]')
    assert not form.is_valid() and "xx" in form.errors["languages"][0]
    form = _form(Campaign, campaign, language_quotas='{"de": -1}')
    assert not form.is_valid() and "whole number" in str(form.errors["language_quotas"])
    form = _form(Campaign, campaign, translations='{"de": {"title": "x"}}')
    assert not form.is_valid() and "instructions" in str(form.errors["translations"])


def test_criterion_translations_need_one_descriptor_a_level() -> None:
    criterion = CriterionFactory(
        scale=Criterion.Scale.LIKERT,
        scale_settings={
            "levels": [{"value": v, "label": str(v), "descriptor": ""} for v in (1, 2, 3)]
        },
    )
    form = _form(Criterion, criterion, translations='{"de": {"levels": ["schlecht", "gut"]}}')
    assert not form.is_valid() and "2 level descriptors" in str(form.errors["translations"])
    form = _form(
        Criterion, criterion, translations='{"de": {"question": "Wie?", "levels": ["a", "b", "c"]}}'
    )
    form.is_valid()
    assert "translations" not in form.errors
