"""The monitor and plan pages say adaptive design is on."""

from __future__ import annotations

import pytest

from annotations.models import (
    Campaign,
)
from tests.ranking.adaptive_data import _member, adaptive_campaign

pytestmark = pytest.mark.django_db


def test_the_monitor_and_plan_pages_say_adaptive_design_is_on(client, django_user_model):
    campaign = adaptive_campaign()
    client.force_login(_member(django_user_model, campaign, "viewer"))
    for page in ("monitor", "plan"):
        body = client.get(f"/campaigns/{campaign.slug}/{page}/").content.decode()
        assert "data-adaptive-note" in body, page
    Campaign.objects.filter(pk=campaign.pk).update(adaptive_design=False)
    body = client.get(f"/campaigns/{campaign.slug}/monitor/").content.decode()
    assert "data-adaptive-note" not in body
