"""What a new designer read wrongly on the overview, plan, settings and power pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Campaign
from annotations.services.campaigns import campaign_create
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


def test_money_is_written_with_its_currency_once_and_thousands_separated():
    from annotations.templatetags.money import money

    assert money(3990, "GBP") == "£3,990.00"
    assert money("1234567.891", "CHF") == "CHF 1,234,567.89"
    assert money(-2.5, "USD") == "-$2.50"


def test_plan_says_how_often_each_output_is_judged_and_the_cost_formatted(client, settings):
    settings.PAYMENT_CURRENCY = "GBP"
    people = users()
    campaign = campaign_create(
        slug="plan", name="Plan", owner=people["owner"], judgements_per_task=3
    )
    from annotations.services.campaigns import OutputRow, outputs_store
    from annotations.services.criteria import criterion_from_preset

    criterion_from_preset(campaign=campaign, preset="naturalness")
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(item_id=str(i), input="x", system=f"s{s}", text=f"t {i} {s}")
            for i in range(400)
            for s in range(5)
        ],
    )
    client.force_login(people["owner"])
    html = client.get(
        reverse("annotations:designer-plan", args=[campaign.slug]), {"pay_per_hour": "12"}
    ).text
    assert "judged once per criterion" not in html
    assert "every output judged at least 3 times per criterion" in html
    # the tasks' formula names every factor: 400 items of 5 systems, 1 task an item
    assert "(1 criterion \u00d7 400 items \u00d7 1 task an item on average)" in html
    found = re.search(r"data-cost>([^<]+)<", html)
    assert found is not None
    cost = found.group(1)
    assert re.fullmatch(r"£\d{1,3}(,\d{3})*\.\d\d", cost), cost
    assert "GBP" not in cost


def test_power_plan_on_a_live_campaign_is_not_labelled_before_launch(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    Campaign.objects.filter(pk=campaign.pk).update(status="live")
    client.force_login(people["owner"])
    html = client.get(reverse("ranking:campaign-power", args=[campaign.slug])).text
    assert "data-power-plan" in html
    assert "Before launch" not in html
    Campaign.objects.filter(pk=campaign.pk).update(status="draft")
    html = client.get(reverse("ranking:campaign-power", args=[campaign.slug])).text
    assert "Before launch" in html


def test_the_settings_page_has_one_name(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=0)
    client.force_login(people["owner"])
    url = reverse("annotations:designer-settings", args=[campaign.slug])
    html = client.get(url).text
    assert f'<a href="{url}" aria-current="page">Settings</a>' in html
    assert "<title>Settings ·" in html and "<h2>Settings</h2>" in html
    assert re.search(r">\s*Design( and settings)?\s*<", html) is None


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
