"""The API refuses a run of a criterion without judgements with a 400."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ranking.models import RankingRun

pytestmark = pytest.mark.django_db


def test_the_api_refuses_it_with_a_400(campaign):
    client = APIClient()
    client.force_authenticate(campaign.memberships.get(role="owner").user)
    response = client.post(
        f"/api/campaigns/{campaign.slug}/rankings/",
        {"criterion": "naturalness", "runs": 20},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert "'naturalness' has no judgements to rank yet" in response.text
    assert not RankingRun.objects.exists()
