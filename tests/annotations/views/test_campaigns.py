"""Campaign pages (annotations/views/campaigns.py): create, the overview, the forms' labels."""

from __future__ import annotations

from django.urls import reverse

from annotations.models import Campaign, CampaignMembership
from tests.annotations.designer_data import judged_campaign
from tests.annotations.views.new_campaign import _campaign


def test_create_campaign_makes_the_user_owner(owner_client, people):
    campaign = _campaign(owner_client)
    assert campaign.owner == people["owner"]
    assert campaign.memberships.get().role == CampaignMembership.Role.OWNER
    page = owner_client.get(reverse("annotations:designer-campaign", args=[campaign.slug]))
    assert "Pilot" in page.content.decode()


def test_reserved_and_duplicate_slugs_are_refused(owner_client):
    _campaign(owner_client)
    for slug in ("pilot", "new"):
        response = owner_client.post(
            reverse("annotations:designer-new"), {"name": "X", "slug": slug}
        )
        assert response.status_code == 200
        assert "errorlist" in response.content.decode()
    assert Campaign.objects.count() == 1


def test_overview_shows_platform_links_and_preview(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    html = owner_client.get(
        reverse("annotations:designer-campaign", args=[campaign.slug])
    ).content.decode()
    assert (
        f"/w/{campaign.slug}/?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}&amp;STUDY_ID={{{{%STUDY_ID%}}}}"
        "&amp;SESSION_ID={{%SESSION_ID%}}" in html
    )
    assert "ExternalQuestion" in html
    assert f'href="/w/{campaign.slug}/preview/"' in html


def test_whole_forms_write_labels_as_the_site_does_and_suggest_the_slug(owner_client):
    """Forms a template renders whole (``as_div``) have labels without Django's colon,
    like every hand-written form of the site; the slug follows the name (the script
    reads ``data-slug-from``; tests/flows/browser/test_designer_forms.py types it)."""
    campaign = _campaign(owner_client)
    pages = {
        "new": reverse("annotations:designer-new"),
        "clone": reverse("annotations:designer-clone", args=[campaign.slug]),
        "campaign": reverse("annotations:designer-campaign", args=[campaign.slug]),
    }
    for name, url in pages.items():
        html = owner_client.get(url).content.decode()
        assert "</label>" in html, name
        assert ":</label>" not in html, name
        if name != "campaign":
            assert 'data-slug-from="id_name"' in html, name
