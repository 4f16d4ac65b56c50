"""Life-cycle pages (annotations/views/lifecycle.py): archive and restore, refusals with the reason, viewers."""

from __future__ import annotations

from django.urls import reverse

from annotations.models import CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign

# Life cycle pages ---------------------------------------------------------------------------------


def test_archive_from_closed_then_restore(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    slug = campaign.slug
    owner_client.post(reverse("annotations:designer-close", args=[slug]))
    html = owner_client.get(reverse("annotations:designer-campaign", args=[slug])).content
    assert b"Archive" in html and b"Clone for a new round" in html
    owner_client.post(reverse("annotations:designer-archive", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == "archived"
    home = owner_client.get("/").content.decode()
    assert "Archived campaigns (1)" in home
    assert home.index("Archived campaigns") < home.index(f"/campaigns/{slug}/")
    owner_client.post(reverse("annotations:designer-unarchive", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == "closed"


def test_refused_transition_shows_the_reason(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    response = owner_client.post(
        reverse("annotations:designer-archive", args=[campaign.slug]), follow=True
    )
    assert "A draft campaign cannot be archived" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.status == "draft"


def test_viewers_cannot_change_the_life_cycle(client, people):
    campaign = judged_campaign(owner=people["owner"])
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    client.force_login(people["viewer"])
    for name in ("designer-close", "designer-archive", "designer-clone", "designer-delete"):
        assert client.post(reverse(f"annotations:{name}", args=[campaign.slug])).status_code == 403
    campaign.refresh_from_db()
    assert campaign.status == "draft"
