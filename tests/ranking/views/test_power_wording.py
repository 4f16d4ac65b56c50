"""The power page's wording: costs in the currency, the plan labelled by the campaign's state."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Campaign
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


def test_the_power_page_costs_are_in_the_currency(client, settings):
    settings.PAYMENT_CURRENCY = "USD"
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    client.force_login(people["owner"])
    html = client.get(reverse("ranking:campaign-power", args=[campaign.slug])).text
    assert re.search(r"\$[\d.,]+</strong>", html) and re.search(r"at \$[\d.,]+ an hour", html)


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
