"""Deleting and cloning a campaign (annotations/views/campaigns.py)."""

from __future__ import annotations

import re

from django.urls import reverse

from annotations.models import Campaign, CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign
from tests.annotations.draft_campaign import _draft


def test_delete_page_states_what_is_lost_and_needs_the_slug(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    Campaign.objects.filter(pk=campaign.pk).update(status="closed")
    url = reverse("annotations:designer-delete", args=[campaign.slug])
    html = owner_client.get(url).content.decode()
    lost = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[html.index('id="lost"') :]))
    assert "12 judgements" in lost and "3 workers" in lost and "0 ranking runs" in lost
    assert "Archive instead" in html
    response = owner_client.post(url, {"confirm_slug": "wrong"}, follow=True)
    assert "to delete it" in response.content.decode()
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    response = owner_client.post(url, {"confirm_slug": campaign.slug})
    assert response.status_code == 302 and response["Location"] == "/"
    assert not Campaign.objects.filter(pk=campaign.pk).exists()


def test_delete_a_live_campaign_is_refused_and_only_owners_delete(client, people):
    campaign = judged_campaign(owner=people["owner"])
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    client.force_login(people["designer"])
    url = reverse("annotations:designer-delete", args=[campaign.slug])
    assert client.get(url).status_code == 403
    assert client.post(url, {"confirm_slug": campaign.slug}).status_code == 403
    client.force_login(people["owner"])
    Campaign.objects.filter(pk=campaign.pk).update(status="live")
    assert "close it first" in client.get(url).content.decode()
    response = client.post(url, {"confirm_slug": campaign.slug}, follow=True)
    assert "close it first" in response.content.decode()
    assert Campaign.objects.filter(pk=campaign.pk).exists()


def test_delete_a_draft(owner_client, people):
    campaign = _draft(people["owner"])
    url = reverse("annotations:designer-delete", args=[campaign.slug])
    assert owner_client.post(url, {"confirm_slug": campaign.slug}).status_code == 302
    assert not Campaign.objects.filter(slug="draft").exists()


def test_clone_page_makes_a_second_round(client, people):
    campaign = judged_campaign(owner=people["owner"])
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    client.force_login(people["designer"])
    url = reverse("annotations:designer-clone", args=[campaign.slug])
    page = client.get(url)
    assert page.context["form"].initial["slug"] == "judged-2"
    taken = client.post(url, {"name": "Again", "slug": campaign.slug})
    assert taken.status_code == 200 and "already exists" in taken.content.decode()
    response = client.post(url, {"name": "Round 2", "slug": "judged-2"})
    assert response.status_code == 302 and response["Location"] == "/campaigns/judged-2/"
    clone = Campaign.objects.get(slug="judged-2")
    assert clone.owner == people["designer"] and clone.status == "draft"
    assert clone.criteria.count() == 1 and clone.workers.count() == 0
