"""The run form refuses a criterion without judgements, and says when only excluded workers judged it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ranking.models import RankingRun

pytestmark = pytest.mark.django_db


def test_the_form_refuses_a_criterion_without_judgements(client, campaign):
    client.force_login(campaign.memberships.get(role="owner").user)
    response = client.post(
        reverse("ranking:campaign-runs", args=[campaign.slug]),
        {
            "criterion": "naturalness",
            "method": "wmt14",
            "runs": 20,
            "seed": 3,
            "confidence": 0.95,
            "exclude_flagged": "on",
        },
    )
    assert response.status_code == 200
    assert "&#x27;naturalness&#x27; has no judgements to rank yet" in response.text
    assert not RankingRun.objects.exists()


def test_only_excluded_workers_judged_it_says_so(client, campaign):
    campaign.workers.update(excluded=True)
    client.force_login(campaign.memberships.get(role="owner").user)
    data = {"criterion": "quality", "method": "wmt14", "runs": 20, "seed": 3}
    data |= {"confidence": 0.95, "exclude_flagged": "on"}
    response = client.post(reverse("ranking:campaign-runs", args=[campaign.slug]), data)
    assert "Every judgement of &#x27;quality&#x27; is by an excluded worker" in response.text
    assert not RankingRun.objects.exists()
