"""The settings form carries its own labels and groups, and every field is on the page."""

from __future__ import annotations

from collections import Counter

import pytest

from annotations.forms.settings import SETTINGS_GROUPS, SETTINGS_LABELS, CampaignDesignForm
from annotations.selectors.campaigns import SETTINGS_ON_PAGE


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
