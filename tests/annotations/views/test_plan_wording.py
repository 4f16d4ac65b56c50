"""What a new designer read wrongly on the plan page: comparisons summed over criteria, costs without a currency."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Campaign
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


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
