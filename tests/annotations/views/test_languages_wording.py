"""What a viewer read wrongly: a languages form they cannot save."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign, users

pytestmark = pytest.mark.django_db


def test_a_viewer_sees_the_languages_form_read_only(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    client.force_login(people["viewer"])
    html = client.get(reverse("annotations:designer-languages", args=[campaign.slug])).text
    form = html[html.index("<h3>Languages and quotas</h3>") :]
    fields = re.findall(r"<(?:input|select|textarea)\b(?![^>]*type=\"hidden\")[^>]*>", form)
    assert fields and all(" disabled" in f for f in fields)
    assert "Save languages" not in html
