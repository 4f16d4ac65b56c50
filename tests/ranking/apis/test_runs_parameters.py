"""The API refuses impossible parameters with a 400 naming the field, storing nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ranking.models import RankingRun
from tests.annotations.designer_data import users
from tests.ranking.bad_parameters import BAD
from tests.ranking.planted import planted_campaign


@pytest.mark.django_db
@pytest.mark.parametrize("body,field,named", BAD)
def test_the_api_refuses_with_400_naming_the_field_and_stores_nothing(body, field, named):
    campaign, _ = planted_campaign(strengths=[10, 0, -10], n_judgements=4, k=3)
    people = users()
    campaign.owner = people["owner"]
    campaign.save(update_fields=["owner"])
    api = APIClient()
    api.force_authenticate(people["owner"])
    response = api.post(
        f"/api/campaigns/{campaign.slug}/rankings/",
        {"criterion": "quality", "runs": 10, **body},
        format="json",
    )
    assert response.status_code == 400, response.content
    data = response.json()
    assert field in data["fields"] and named in " ".join(data["fields"][field])
    assert not RankingRun.objects.exists()
