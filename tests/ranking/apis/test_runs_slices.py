"""The runs API takes a slice and names the field when it is wrong (ranking/apis/runs.py)."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership
from tests.ranking.sliced_campaign import _sliced

pytestmark = pytest.mark.django_db


def test_the_api_takes_a_slice_and_names_the_field_when_wrong(client, django_user_model) -> None:
    campaign, criterion = _sliced(20)
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    url = f"/api/campaigns/{campaign.slug}/rankings/"
    made = client.post(
        url,
        {"criterion": criterion.name, "runs": 5, "where": {"challenge_set": "a"}},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["where"] == {"challenge_set": "a"}
    bad = client.post(
        url,
        {"criterion": criterion.name, "runs": 5, "where": {"challenge_set": "zzz"}},
        content_type="application/json",
    )
    assert bad.status_code == 400 and "where" in bad.content.decode()
