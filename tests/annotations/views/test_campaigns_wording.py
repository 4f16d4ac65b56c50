"""What a new designer read wrongly on the overview: the primary button on a step not yet due."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Campaign
from annotations.services.campaigns import campaign_create
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


def _button(html: str, text: str) -> str:
    """The opening tag of the submit button whose label is ``text``."""
    match = re.search(r"(<button[^>]*>)\s*" + re.escape(text) + r"\s*</button>", html)
    assert match, text
    return match.group(1)


def test_the_next_needed_step_is_the_primary_button(client):
    people = users()
    campaign = campaign_create(slug="empty", name="Empty", owner=people["owner"])
    client.force_login(people["owner"])
    url = reverse("annotations:designer-campaign", args=[campaign.slug])
    html = client.get(url).text
    # An empty draft: uploading comes first; launching is not due.
    assert "data-next-step" in _button(html, "Upload")
    assert 'class="btn-secondary"' in _button(html, "Launch")
    assert 'class="btn-secondary"' in _button(html, "Build tasks")
    built = judged_campaign(owner=people["owner"], slug="built", n_items=2, n_workers=0)
    Campaign.objects.filter(pk=built.pk).update(status="draft")
    html = client.get(reverse("annotations:designer-campaign", args=[built.slug])).text
    assert "data-next-step" in _button(html, "Launch")
    assert 'class="btn-secondary"' in _button(html, "Upload")
