"""What a new designer read wrongly: an upload form refused after launch."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Campaign
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


def test_live_campaign_hides_the_upload_form_and_says_why(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    Campaign.objects.filter(pk=campaign.pk).update(status="live")
    client.force_login(people["owner"])
    html = client.get(reverse("annotations:designer-campaign", args=[campaign.slug])).text
    assert reverse("annotations:designer-upload", args=[campaign.slug]) not in html
    assert "uploaded only while the campaign is a draft" in html
