"""What a new designer read wrongly on the settings page: its name."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


def test_the_settings_page_has_one_name(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=0)
    client.force_login(people["owner"])
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    html = client.get(url).text
    assert f'<a href="{url}" aria-current="page">Settings</a>' in html
    assert "<title>Settings ·" in html and "<h2>Settings</h2>" in html
    assert re.search(r">\s*Design( and settings)?\s*<", html) is None
