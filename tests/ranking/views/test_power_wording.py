"""What a new designer read wrongly on the power page: costs without a currency."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


def test_the_power_page_costs_are_in_the_currency(client, settings):
    settings.PAYMENT_CURRENCY = "USD"
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    client.force_login(people["owner"])
    html = client.get(reverse("ranking:campaign-power", args=[campaign.slug])).text
    assert re.search(r"\$[\d.,]+</strong>", html) and re.search(r"at \$[\d.,]+ an hour", html)
