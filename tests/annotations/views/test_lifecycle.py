"""The life-cycle buttons (annotations/views/lifecycle.py): build, launch, pause, close."""

from __future__ import annotations

from django.urls import reverse

from annotations.core.outputs import OutputRow
from annotations.models import Campaign, Task
from annotations.services.criteria import criterion_from_preset
from annotations.services.outputs import outputs_store
from tests.annotations.designer_data import judged_campaign
from tests.annotations.views.new_campaign import _campaign


def test_lifecycle_launch_pause_close(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    campaign.criteria.update(standard_text="The standard.")  # magnitude needs a standard
    slug = campaign.slug
    owner_client.post(reverse("annotations:designer-launch", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.LIVE
    owner_client.post(reverse("annotations:designer-pause", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.PAUSED
    owner_client.post(reverse("annotations:designer-close", args=[slug]))
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.CLOSED
    response = owner_client.post(reverse("annotations:designer-launch", args=[slug]), follow=True)
    assert "cannot be launched" in response.content.decode()


def test_launch_without_tasks_is_refused(owner_client):
    campaign = _campaign(owner_client)
    response = owner_client.post(
        reverse("annotations:designer-launch", args=[campaign.slug]), follow=True
    )
    assert "Add at least one criterion" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.DRAFT


def test_launch_without_consent_text_is_refused_and_the_plan_says_so(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    campaign.criteria.update(standard_text="The standard.")  # magnitude needs a standard
    Campaign.objects.filter(pk=campaign.pk).update(consent_text="   ")
    plan = reverse("annotations:designer-plan", args=[campaign.slug])
    html = owner_client.get(plan).content.decode()
    assert 'id="consent-missing"' in html and "The consent text is empty" in html
    assert reverse("annotations:designer-settings", args=[campaign.slug]) in html
    response = owner_client.post(
        reverse("annotations:designer-launch", args=[campaign.slug]), follow=True
    )
    assert "Write the consent text (Settings) before launching" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.DRAFT
    Campaign.objects.filter(pk=campaign.pk).update(consent_text="You may stop at any time.")
    assert 'id="consent-missing"' not in owner_client.get(plan).content.decode()
    owner_client.post(reverse("annotations:designer-launch", args=[campaign.slug]))
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.LIVE


def test_build_view_calls_task_design(owner_client, people, monkeypatch):
    campaign = _campaign(owner_client)
    response = owner_client.post(
        reverse("annotations:designer-build", args=[campaign.slug]), follow=True
    )
    assert "Add at least one criterion" in response.content.decode()
    assert not Task.objects.filter(campaign=campaign).exists()


def test_build_without_a_magnitude_standard_says_which_criterion_and_builds_nothing(
    owner_client, people
):
    campaign = _campaign(owner_client)
    outputs_store(
        campaign=campaign,
        rows=[OutputRow(item_id="i1", input="x", system=s, text=s) for s in "abcde"],
    )
    criterion_from_preset(campaign=campaign, preset="quality")
    page = owner_client.get(reverse("annotations:designer-campaign", args=[campaign.slug]))
    html = page.content.decode()
    assert "First choose the standard of each magnitude criterion." in html
    assert ">Choose standards</a>" in html
    response = owner_client.post(
        reverse("annotations:designer-build", args=[campaign.slug]), follow=True
    )
    assert "Criterion &#x27;quality&#x27; uses magnitude estimation" in response.content.decode()
    assert not Task.objects.filter(campaign=campaign).exists()
