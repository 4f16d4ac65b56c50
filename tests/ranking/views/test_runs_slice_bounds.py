"""The ranking page's form refuses too many slice conditions."""

from __future__ import annotations

from typing import Any

import pytest

from annotations.core.slices import MAX_CONDITIONS
from ranking.models import RankingRun
from tests.annotations.designer_data import judged_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> tuple[Any, Any]:
    people, campaign, _run = judged_world()
    return campaign, campaign.owner or people["owner"]


def test_the_ranking_page_refuses_too_many_conditions_in_its_form(world, client) -> None:
    campaign, owner = world
    client.force_login(owner)
    where = ", ".join(f"k{i}=v" for i in range(MAX_CONDITIONS + 1))
    response = client.post(
        f"/rankings/campaign/{campaign.slug}/",
        {
            "criterion": "quality",
            "method": "wmt14",
            "runs": 10,
            "seed": 1,
            "confidence": 0.95,
            "where": where,
        },
    )
    assert response.status_code == 200  # the form again, with the error
    assert f"at most {MAX_CONDITIONS} conditions" in response.content.decode()
    assert not RankingRun.objects.filter(where__has_key="k0").exists()
