"""The plan page (annotations/views/plan.py) and its htmx partial."""

from __future__ import annotations

import pytest
from django.urls import reverse

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
