"""The API takes a slice, names the field when wrong, and shows slices side by side."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership
from ranking.services import compute
from ranking.services import runs as services
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


def test_the_api_shows_slices_side_by_side(client, django_user_model) -> None:
    campaign, criterion = _sliced(40)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    for where in ({}, {"challenge_set": "b"}):
        run = services.ranking_run_create(
            campaign=campaign, criterion=criterion, queue=False, where=where, runs=20
        )
        compute.ranking_run_compute(run=run, fan_out=False)
    url = f"/api/campaigns/{campaign.slug}/rankings/slices/"
    body = client.get(url, {"criterion": criterion.name, "by": "challenge_set"}).json()
    assert [s["slice"] for s in body["slices"]] == ["all items", "challenge_set=b"]
    assert body["not_ranked"] == ["a"]
    assert len(body["systems"]) == 3 and all(len(s["by_slice"]) == 2 for s in body["systems"])
    assert body["systems"][0]["system"] == "s0"
    bad = client.get(url, {"criterion": criterion.name, "by": "colour"})
    assert bad.status_code == 400 and "by" in bad.json().get("errors", bad.json()).__str__()
