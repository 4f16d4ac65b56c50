"""A criterion created with a position (the API's field) keeps it; without, it comes last.
Found by schemathesis: a POST with ``position`` was a 500 (``position`` given twice)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.annotations.designer_data import judged_world

pytestmark = pytest.mark.django_db


def test_a_criterion_posted_with_a_position_is_created_there() -> None:
    people, campaign, _run = judged_world()
    api = APIClient()
    api.force_authenticate(campaign.owner or people["owner"])
    url = f"/api/campaigns/{campaign.slug}/criteria/"
    body = {"name": "fluency", "question": "How fluent?", "position": 7}
    response = api.post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert campaign.criteria.get(name="fluency").position == 7
    response = api.post(url, {"name": "clarity", "question": "How clear?"}, format="json")
    assert response.status_code == 201, response.content
    assert campaign.criteria.get(name="clarity").position == campaign.criteria.count() - 1
