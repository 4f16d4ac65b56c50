"""The settings page's wording: one name, and read-only text for a viewer who cannot save."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Campaign, CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign, users

pytestmark = pytest.mark.django_db


def test_a_viewer_reads_the_settings_as_text_without_inputs(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    Campaign.objects.filter(pk=campaign.pk).update(status="draft")
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    client.force_login(people["viewer"])
    html = client.get(reverse("annotations:designer-settings", args=[campaign.slug])).text
    form = html[html.index('class="form design-form"') :]
    assert not re.search(r"<(input|select|textarea)\b(?![^>]*type=\"hidden\")", form)
    assert "Save settings" not in html and "Judged campaign" in html
    client.force_login(people["owner"])
    html = client.get(reverse("annotations:designer-settings", args=[campaign.slug])).text
    assert 'name="name"' in html and "Save settings" in html


def test_the_settings_page_has_one_name(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=0)
    client.force_login(people["owner"])
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    html = client.get(url).text
    assert f'<a href="{url}" aria-current="page">Settings</a>' in html
    assert "<title>Settings ·" in html and "<h2>Settings</h2>" in html
    assert re.search(r">\s*Design( and settings)?\s*<", html) is None
