"""The ranking API refuses too many slice conditions, naming the limit."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from annotations.core.slices import MAX_CONDITIONS
from ranking.models import RankingRun
from tests.annotations.designer_data import judged_world

pytestmark = pytest.mark.django_db


TOO_MANY = {f"k{i}": "v" for i in range(MAX_CONDITIONS + 1)}


@pytest.fixture
def world() -> tuple[Any, Any]:
    people, campaign, _run = judged_world()
    return campaign, campaign.owner or people["owner"]


def test_the_api_refuses_too_many_conditions_naming_the_limit(world) -> None:
    campaign, owner = world
    api = APIClient()
    api.force_authenticate(owner)
    before = RankingRun.objects.count()
    for where in (TOO_MANY, {f"k{i}": "v" for i in range(20_000)}):
        response = api.post(
            f"/api/campaigns/{campaign.slug}/rankings/",
            {"criterion": "quality", "where": where},
            format="json",
        )
        assert response.status_code == 400, response.content[:200]
        body = response.json()
        assert f"at most {MAX_CONDITIONS} conditions" in body["fields"]["where"][0]
        assert len(body["detail"]) < 500  # the message does not echo 20,000 conditions
    assert RankingRun.objects.count() == before
