"""The settings form carries its own labels and groups, and every field is on the page."""

from __future__ import annotations

from collections import Counter

import pytest

from annotations.forms.settings import SETTINGS_GROUPS, SETTINGS_LABELS, CampaignDesignForm
from annotations.selectors.campaigns import SETTINGS_ON_PAGE
from tests.source_text import modules_containing


def test_every_setting_is_in_exactly_one_group():
    """A field the page does not show comes back empty from the browser: it would be
    reset on every save."""
    placed = Counter(name for _, _, names in SETTINGS_GROUPS for name in names)
    assert set(placed) == set(SETTINGS_ON_PAGE), (
        f"not on the page: {sorted(set(SETTINGS_ON_PAGE) - set(placed))}; "
        f"not settings: {sorted(set(placed) - set(SETTINGS_ON_PAGE))}"
    )
    assert [name for name, count in placed.items() if count > 1] == []


def test_labels_name_only_settings():
    assert set(SETTINGS_LABELS) <= set(SETTINGS_ON_PAGE)


@pytest.mark.django_db
def test_the_form_groups_its_bound_fields_with_the_organizers_labels():
    form = CampaignDesignForm()
    groups = form.groups()
    assert [title for title, _, _ in groups] == [title for title, _, _ in SETTINGS_GROUPS]
    shown = [field.name for _, _, fields in groups for field in fields]
    assert sorted(shown) == sorted(form.fields)
    label, _ = SETTINGS_LABELS["setup"]
    assert form["setup"].label == label


def test_a_setting_left_out_of_the_groups_fails_loudly(monkeypatch):
    """The form refuses to be shown without one of its fields (rather than resetting it)."""
    from annotations.forms import settings as settings_forms

    short = [
        (title, note, [n for n in names if n != "instructions"])
        for title, note, names in SETTINGS_GROUPS
    ]
    monkeypatch.setattr(settings_forms, "SETTINGS_GROUPS", short)
    with pytest.raises(settings_forms.SettingsPageIncomplete, match="instructions"):
        CampaignDesignForm().groups()


@pytest.mark.django_db
def test_a_fixed_setting_posted_anyway_is_refused_by_the_services_rule():
    """The form asks services.campaigns.campaign_fixed_check, the rule
    campaign_settings_update obeys, and shows its words: no copy of the rule."""

    from django.forms.models import model_to_dict

    from annotations.selectors.campaigns import campaign_fixed_fields
    from annotations.services.campaigns import campaign_fixed_check
    from common.errors import DomainError
    from tests.annotations.designer_data import judged_campaign

    campaign = judged_campaign()  # tasks built: the design is fixed
    fixed = campaign_fixed_fields(campaign=campaign)
    data = {
        k: v
        for k, v in model_to_dict(campaign, fields=SETTINGS_ON_PAGE).items()
        if v is not None and v is not False and k not in fixed
    }
    data["judgements_per_task"] = 5
    form = CampaignDesignForm(data, instance=campaign, fixed=fixed)
    assert not form.is_valid()
    with pytest.raises(DomainError) as refusal:
        campaign_fixed_check(campaign=campaign, changed=["judgements_per_task"])
    assert form.non_field_errors() == [str(refusal.value)]
    assert str(refusal.value).startswith("Tasks are built already; these settings can no longer")
    writers = modules_containing("settings can no longer change")
    assert writers == ["annotations/services/campaigns.py"]
