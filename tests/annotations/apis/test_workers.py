"""The workers API (annotations/apis/workers.py): filter, exclude, free a taken id."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_workers_filter_and_exclude(designer_api):
    client, campaign, _ = designer_api
    worker = campaign.workers.get(external_id="PID0002")
    response = client.patch(
        f"/api/campaigns/{campaign.slug}/workers/{worker.pk}/",
        {"excluded": True, "reason": "Same score everywhere"},
        format="json",
    )
    assert response.json()["excluded"] is True
    assert response.json()["exclusion_reason"] == "Same score everywhere"
    listed = client.get(f"/api/campaigns/{campaign.slug}/workers/?excluded=true").json()
    assert [r["worker"]["external_id"] for r in listed["results"]] == ["PID0002"]
    assert listed["results"][0]["tasks_done"] == 4
    # Read-only fields are ignored, not written.
    client.patch(
        f"/api/campaigns/{campaign.slug}/workers/{worker.pk}/", {"external_id": "X"}, format="json"
    )
    worker.refresh_from_db()
    assert worker.external_id == "PID0002"


def test_an_exclusion_without_a_reason_is_refused_naming_the_field(designer_api):
    """The API obeys the page's rule (services.workers.worker_mark): an exclusion says why."""
    client, campaign, _ = designer_api
    worker = campaign.workers.get(external_id="PID0002")
    url = f"/api/campaigns/{campaign.slug}/workers/{worker.pk}/"
    for body in ({"excluded": True}, {"excluded": True, "reason": "   "}):
        response = client.patch(url, body, format="json")
        assert response.status_code == 400, body
        error = response.json()
        assert error["code"] == "refused"
        assert list(error["fields"]) == ["reason"]
        assert "Say why this worker is excluded" in error["fields"]["reason"][0]
    response = client.patch(url, {"excluded": True, "reason": "x" * 501}, format="json")
    assert response.status_code == 400 and list(response.json()["fields"]) == ["reason"]
    worker.refresh_from_db()
    assert not worker.excluded and worker.exclusion_reason == ""
    # Once excluded with a reason, a repeated exclusion keeps it; inclusion clears it.
    client.patch(url, {"excluded": True, "reason": "bot"}, format="json")
    assert client.patch(url, {"excluded": True}, format="json").json()["exclusion_reason"] == "bot"
    assert client.patch(url, {"excluded": False}, format="json").json()["exclusion_reason"] == ""


def test_a_taken_id_is_freed_through_the_api_as_on_the_monitor(world, api_as):
    """``POST .../workers/<pk>/release/``: a reason is required (400 naming it, nothing
    written); then the record is excluded and stopped and its id renamed, so that the
    next arrival with the id starts afresh; a second call changes nothing; a viewer may
    not."""
    people, campaign, _ = world
    worker = campaign.workers.get(external_id="PID0002")
    url = f"/api/campaigns/{campaign.slug}/workers/{worker.pk}/release/"
    assert api_as(people["viewer"]).post(url, {"reason": "x"}, format="json").status_code == 403
    client = api_as(people["designer"])
    refused = client.post(url, {}, format="json")
    assert refused.status_code == 400 and list(refused.json()["fields"]) == ["reason"]
    worker.refresh_from_db()
    assert worker.external_id == "PID0002" and not worker.excluded
    freed = client.post(url, {"reason": "Its owner wrote to us"}, format="json")
    assert freed.status_code == 200
    body = freed.json()
    assert body["external_id"] == f"PID0002~released-{worker.pk}"
    assert body["excluded"] is True and body["stopped"] is True
    assert body["exclusion_reason"] == "Its owner wrote to us"
    again = client.post(url, {"reason": "other"}, format="json").json()
    assert again["exclusion_reason"] == "Its owner wrote to us"
    missing = f"/api/campaigns/{campaign.slug}/workers/999999/release/"
    assert client.post(missing, {"reason": "x"}, format="json").status_code == 404
