"""The run form refuses a negative seed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ranking.models import RankingRun
from tests.annotations.designer_data import judged_campaign, users


@pytest.mark.django_db
def test_the_form_refuses_a_negative_seed(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=6)
    client.force_login(people["owner"])
    response = client.post(
        reverse("ranking:campaign-runs", args=[campaign.slug]),
        {"criterion": "quality", "method": "wmt14", "runs": 20, "seed": -1, "confidence": 0.95},
    )
    assert response.status_code == 200
    assert "The seed must be a whole number from 0" in response.content.decode()
    assert not RankingRun.objects.exists()
