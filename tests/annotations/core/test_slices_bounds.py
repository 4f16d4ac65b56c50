"""A slice has at most so many conditions (annotations/core/slices.py), each of a bounded
length, on every way in."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from annotations.core.slices import MAX_CONDITIONS, SliceError, parse_where
from ranking.services import runs as services
from tests.annotations.designer_data import judged_world

pytestmark = pytest.mark.django_db


TOO_MANY = {f"k{i}": "v" for i in range(MAX_CONDITIONS + 1)}


@pytest.fixture
def world() -> tuple[Any, Any]:
    people, campaign, _run = judged_world()
    return campaign, campaign.owner or people["owner"]


def test_every_other_way_in_refuses_too_many_conditions(world, client) -> None:
    campaign, owner = world
    with pytest.raises(SliceError, match=f"at most {MAX_CONDITIONS}"):
        parse_where(f"{k}={v}" for k, v in TOO_MANY.items())
    with pytest.raises(services.DomainError, match=f"at most {MAX_CONDITIONS}"):
        services.ranking_run_create(
            campaign=campaign, criterion=campaign.criteria.get(), where=TOO_MANY
        )
    client.force_login(owner)
    query = "&".join(f"where={k}%3D{v}" for k, v in TOO_MANY.items())
    api = APIClient()
    api.force_authenticate(owner)
    response = api.get(f"/api/campaigns/{campaign.slug}/export/?criterion=quality&{query}")
    assert response.status_code == 400 and "at most" in response.json()["detail"]
    page = client.get(f"/campaigns/{campaign.slug}/export/?criterion=quality&{query}")
    assert page.status_code == 400 and b"at most" in page.content


def test_parse_where_stops_reading_at_the_limit() -> None:
    read = 0

    def conditions():
        nonlocal read
        for i in range(1_000_000):
            read += 1
            yield f"k{i}=v"

    with pytest.raises(SliceError):
        parse_where(conditions())
    assert read == MAX_CONDITIONS + 1


def test_a_value_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(SliceError, match="longer than 200"):
        parse_where(["domain=" + "x" * 201])
