"""The member form offers the viewer role first."""

from __future__ import annotations

from django.urls import reverse

from annotations.models import CampaignMembership
from tests.annotations.designer_data import judged_campaign


def test_member_form_offers_viewer_first(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    page = owner_client.get(reverse("annotations:designer-members", args=[campaign.slug]))
    assert page.context["form"]["role"].value() == CampaignMembership.Role.VIEWER
    assert '<option value="viewer" selected>' in page.content.decode()
