"""The plan page (annotations/views/plan.py) and its htmx partial."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.selectors.plan import PAY_PER_HOUR_DEFAULT, campaign_plan
from tests.annotations.designer_data import judged_campaign

HX = {"HTTP_HX_REQUEST": "true"}


def test_plan_page_and_partial(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-plan", args=[campaign.slug])
    page = owner_client.get(url, {"pay_per_hour": "12", "seconds_per_task": "60"})
    plan = page.context["plan"]
    # 4 built tasks x 3 judgements = 12 judgements of 60 s at 12 an hour.
    assert plan.built and plan.tasks == 4 and plan.judgements == 12
    assert plan.cost == pytest.approx(12 * 60 / 3600 * 12)
    html = page.content.decode()
    assert 'hx-get="' + url in html and 'action="' + url in html
    partial = owner_client.get(url, {"pay_per_hour": "10"}, **HX).content.decode()
    assert partial.lstrip().startswith('<div id="plan-result">')
    assert "<html" not in partial


def test_a_blank_pay_costs_what_the_untouched_page_shows(owner_client, people):
    """The untouched page plans at the default pay (12 an hour); submitting it with the
    pay field emptied planned at 0. Blank is the default, as the field says."""
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-plan", args=[campaign.slug])
    untouched = owner_client.get(url)
    shown = untouched.context["form"]["pay_per_hour"].value()
    assert float(shown) == PAY_PER_HOUR_DEFAULT
    blank = owner_client.get(url, {"pay_per_hour": "", "seconds_per_task": "60"}).context["plan"]
    typed = owner_client.get(url, {"pay_per_hour": shown, "seconds_per_task": "60"})
    assert blank.pay_per_hour == PAY_PER_HOUR_DEFAULT
    assert blank.cost == typed.context["plan"].cost > 0
    assert f"left empty: {PAY_PER_HOUR_DEFAULT:.2f})" in untouched.content.decode()
    # A pay of 0 typed in is 0, not the default.
    free = owner_client.get(url, {"pay_per_hour": "0", "seconds_per_task": "60"}).context["plan"]
    assert free.cost == 0


def test_the_plan_selector_defaults_to_the_page_s_pay(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    url = reverse("annotations:designer-plan", args=[campaign.slug])
    page = owner_client.get(url).context["plan"]
    assert campaign_plan(campaign=campaign).cost == page.cost > 0
