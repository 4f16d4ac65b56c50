"""What a new designer read wrongly: comparisons summed over criteria, costs without a
currency, the primary button on a step not yet due, an upload form refused after
launch, and inputs a viewer cannot save."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Campaign, CampaignMembership
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import add_member, judged_campaign, users

pytestmark = pytest.mark.django_db


def _button(html: str, text: str) -> str:
    """The opening tag of the submit button whose label is ``text``."""
    match = re.search(r"(<button[^>]*>)\s*" + re.escape(text) + r"\s*</button>", html)
    assert match, text
    return match.group(1)


def test_plan_says_comparisons_per_criterion_and_costs_in_a_currency(client, settings):
    settings.PAYMENT_CURRENCY = "GBP"
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=4, n_workers=1)
    criterion_from_preset(campaign=campaign, preset="naturalness")
    criterion_from_preset(campaign=campaign, preset="informativeness")
    Campaign.objects.filter(pk=campaign.pk).update(status="draft")
    client.force_login(people["owner"])
    html = client.get(reverse("annotations:designer-plan", args=[campaign.slug])).text
    assert "all 3 criteria together" in html and "Per criterion" in html
    per = [int(v.replace(",", "")) for v in re.findall(r"data-per-criterion>([\d,]+)<", html)]
    assert per and all(v > 0 for v in per)
    assert re.search(r"data-cost>£[\d.,]+<", html)
    assert "Pay per hour (GBP)" in html


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


def test_live_campaign_hides_the_upload_form_and_says_why(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    Campaign.objects.filter(pk=campaign.pk).update(status="live")
    client.force_login(people["owner"])
    html = client.get(reverse("annotations:designer-campaign", args=[campaign.slug])).text
    assert reverse("annotations:designer-upload", args=[campaign.slug]) not in html
    assert "uploaded only while the campaign is a draft" in html


def test_a_viewer_reads_the_settings_as_text_without_inputs(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    Campaign.objects.filter(pk=campaign.pk).update(status="draft")
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    client.force_login(people["viewer"])
    html = client.get(reverse("annotations:designer-settings", args=[campaign.slug])).text
    form = html[html.index('class="form design-form"') :]
    assert not re.search(r"<(input|select|textarea)\b(?![^>]*type=\"hidden\")", form)
    assert "Save settings" not in html and "Judged campaign" in html
    client.force_login(people["owner"])
    html = client.get(reverse("annotations:designer-settings", args=[campaign.slug])).text
    assert 'name="name"' in html and "Save settings" in html


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


def test_the_power_page_costs_are_in_the_currency(client, settings):
    settings.PAYMENT_CURRENCY = "USD"
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    client.force_login(people["owner"])
    html = client.get(reverse("ranking:campaign-power", args=[campaign.slug])).text
    assert re.search(r"\$[\d.,]+</strong>", html) and re.search(r"at \$[\d.,]+ an hour", html)
