"""The workers API (annotations/apis/workers.py): filter and exclude."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_workers_filter_and_exclude(designer_api):
    client, campaign, _ = designer_api
    worker = campaign.workers.get(external_id="PID0002")
    response = client.patch(
        f"/api/campaigns/{campaign.slug}/workers/{worker.pk}/", {"excluded": True}, format="json"
    )
    assert response.json()["excluded"] is True
    listed = client.get(f"/api/campaigns/{campaign.slug}/workers/?excluded=true").json()
    assert [r["worker"]["external_id"] for r in listed["results"]] == ["PID0002"]
    assert listed["results"][0]["tasks_done"] == 4
    # Read-only fields are ignored, not written.
    client.patch(
        f"/api/campaigns/{campaign.slug}/workers/{worker.pk}/", {"external_id": "X"}, format="json"
    )
    worker.refresh_from_db()
    assert worker.external_id == "PID0002"
