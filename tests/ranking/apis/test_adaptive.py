"""The adaptive design API (ranking/apis/adaptive.py)."""

from __future__ import annotations

import pytest

from annotations.models import (
    Campaign,
)
from tests.ranking.adaptive_data import _member, adaptive_campaign, judge_all

pytestmark = pytest.mark.django_db


def test_the_api(client, django_user_model):
    campaign = adaptive_campaign()
    judge_all(campaign)
    url = f"/api/campaigns/{campaign.slug}/adaptive/"
    client.force_login(_member(django_user_model, campaign, "viewer"))
    assert client.get(url).json()["criteria"][0]["open_places"] == 0
    assert (
        client.post(url, {"criterion": "quality"}, content_type="application/json").status_code
        == 403
    )
    client.force_login(_member(django_user_model, campaign, "designer"))
    made = client.post(url, {"criterion": "quality"}, content_type="application/json")
    assert made.status_code == 201 and made.json()["tasks"] == 20
    body = client.get(url).json()
    assert body["criteria"][0]["batches"][0]["number"] == 1
    bad = client.post(url, {"criterion": "nope"}, content_type="application/json")
    assert bad.status_code == 400 and "nope" in bad.content.decode()
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.CLOSED)
    closed = client.post(url, {"criterion": "quality"}, content_type="application/json")
    assert closed.status_code == 400 and "live" in closed.content.decode()
