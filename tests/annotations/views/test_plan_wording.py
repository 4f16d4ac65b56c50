"""The plan page's wording: comparisons per criterion, how often an output is judged, costs in a currency."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.models import Campaign
from annotations.services.campaigns import campaign_create
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
    assert "Pay per hour (GBP; left empty: " in html


def test_plan_says_how_often_each_output_is_judged_and_the_cost_formatted(client, settings):
    settings.PAYMENT_CURRENCY = "GBP"
    people = users()
    campaign = campaign_create(
        slug="plan", name="Plan", owner=people["owner"], judgements_per_task=3
    )
    from annotations.core.outputs import OutputRow
    from annotations.services.criteria import criterion_from_preset
    from annotations.services.outputs import outputs_store

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
