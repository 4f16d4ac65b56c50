"""The judgements API (annotations/apis/judgements.py): paginated, filtered, the export streamed."""

from __future__ import annotations

import json

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


def test_export_is_streamed(designer_api):
    client, campaign, _ = designer_api
    response = client.get(f"/api/campaigns/{campaign.slug}/export/?criterion=quality&fmt=jsonl")
    assert response.status_code == 200 and response.streaming
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 12 and json.loads(lines[0])["criterion"] == "quality"
    missing = client.get(f"/api/campaigns/{campaign.slug}/export/?criterion=nope")
    assert missing.status_code == 400 and "no criterion 'nope'" in missing.json()["detail"]
