"""A ranking run of a criterion with nothing to rank is refused where it is asked for
(the form, the API, the ``rank`` command), with a message; no run is stored."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.test import APIClient

from annotations.services.criteria import criterion_from_preset
from ranking.models import RankingRun
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign():
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=4)
    criterion_from_preset(campaign=campaign, preset="naturalness")  # no judgements
    return campaign


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


def test_the_rank_command_refuses_it_before_computing(campaign):
    with pytest.raises(CommandError, match="'naturalness' has no judgements to rank yet"):
        call_command(
            "rank", campaign.slug, "--criterion", "naturalness", "--runs", "20",
            stdout=StringIO(), stderr=StringIO(),
        )  # fmt: skip
    assert not RankingRun.objects.exists()


def test_only_excluded_workers_judged_it_says_so(client, campaign):
    campaign.workers.update(excluded=True)
    client.force_login(campaign.memberships.get(role="owner").user)
    data = {"criterion": "quality", "method": "wmt14", "runs": 20, "seed": 3}
    data |= {"confidence": 0.95, "exclude_flagged": "on"}
    response = client.post(reverse("ranking:campaign-runs", args=[campaign.slug]), data)
    assert "every judgement of &#x27;quality&#x27; is by an excluded worker" in response.text
    assert not RankingRun.objects.exists()
