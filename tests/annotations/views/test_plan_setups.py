"""What the plan page (``annotations.views.plan``) says of the set-ups: PlainME gives no
within-task comparisons; a set-up 1 page holds several tasks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Campaign
from tests.annotations.setups_data import signed_in_owner

pytestmark = pytest.mark.django_db


def test_plan_page_says_plainme_gives_no_comparisons_and_explains_pages(client):
    client, campaign = signed_in_owner(client)
    url = reverse("annotations:designer-plan", args=[campaign.slug])
    html = client.get(url).content.decode()
    assert "data-plainme-note" not in html and "data-setup-note" not in html
    Campaign.objects.filter(pk=campaign.pk).update(outputs_per_task=1, setup="together")
    html = client.get(url).content.decode()
    assert "no within-task comparisons" in html
    assert "one page holds 2 tasks" in html
