"""An empty draft's overview: the buttons not yet usable are disabled with the reason."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Campaign
from annotations.services.campaigns import campaign_create
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


def test_build_and_launch_are_disabled_on_an_empty_draft_with_the_reason(client):
    people = users()
    campaign = campaign_create(slug="empty", name="Empty", owner=people["owner"])
    client.force_login(people["owner"])
    html = client.get(reverse("annotations:designer-campaign", args=[campaign.slug])).text
    for label in ("Build tasks", "Launch"):
        match = re.search(r"(<button[^>]*>)\s*" + label + r"\s*</button>", html)
        assert match is not None
        button = match.group(1)
        assert "disabled" in button and 'aria-describedby="actions-blocked"' in button
    blocked = re.search(r'id="actions-blocked"[^>]*>([^<]+)<', html)
    assert blocked is not None
    reason = blocked.group(1)
    assert "upload system outputs" in reason and "add a criterion" in reason
    ready = judged_campaign(owner=people["owner"], slug="ready", n_items=2, n_workers=0)
    Campaign.objects.filter(pk=ready.pk).update(status="draft")
    html = client.get(reverse("annotations:designer-campaign", args=[ready.slug])).text
    assert "actions-blocked" not in html
