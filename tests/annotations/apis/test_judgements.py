"""The judgements API (annotations/apis/judgements.py): paginated, filtered."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_judgements_paginated_and_filtered(designer_api):
    client, campaign, _ = designer_api
    body = client.get(f"/api/campaigns/{campaign.slug}/judgements/?worker=PID0001").json()
    assert body["count"] == 4
    first = body["results"][0]
    assert first["criterion"] == "quality" and len(first["scores"]) == 5
    assert {s["system"] for s in first["scores"]} == {"alpha", "beta", "gamma", "delta", "epsilon"}
    paged = client.get(f"/api/campaigns/{campaign.slug}/judgements/?page_size=5&page=3").json()
    assert paged["count"] == 12 and len(paged["results"]) == 2 and paged["next"] is None
    bad = client.get(f"/api/campaigns/{campaign.slug}/judgements/?submitted_after=yesterday")
    assert bad.status_code == 400 and "submitted_after" in bad.json()["detail"]


def test_an_unknown_criterion_is_a_400_not_an_empty_list(designer_api):
    """``?criterion=nope`` answered an empty 200, where the export answers 400: a typo
    looked like a criterion without judgements."""
    client, campaign, _ = designer_api
    answer = client.get(f"/api/campaigns/{campaign.slug}/judgements/?criterion=nope")
    assert answer.status_code == 400
    assert answer.json()["fields"]["criterion"][0].startswith(
        f"Campaign '{campaign.slug}' has no criterion 'nope'"
    )
    known = client.get(f"/api/campaigns/{campaign.slug}/judgements/?criterion=quality").json()
    assert known["count"] == 12
