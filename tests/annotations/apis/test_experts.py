"""The experts API (annotations/apis/experts.py) reports, marks and excludes."""

from __future__ import annotations

import pytest

from annotations.models import Worker

pytestmark = pytest.mark.django_db


def test_api_reports_marks_and_excludes(experts_world, api_as):
    people, campaign, _ = experts_world
    api = api_as(people["designer"])
    base = f"/api/campaigns/{campaign.slug}/experts/"
    report = api.get(base, {"criterion": "quality"}).json()
    assert report["experts"] == 2
    assert [w["worker"] for w in report["workers"]] == ["careless", "careful"]
    assert report["spearman"]["value"] == pytest.approx(1.0)
    assert report["workers"][0]["alpha"]["low"] <= report["workers"][0]["alpha"]["value"]
    # A criterion named by a query parameter or a body field: a 400, as every API's.
    missing = api.get(base, {"criterion": "nope"})
    assert missing.status_code == 400 and missing.json()["code"] == "refused"
    assert "has no criterion 'nope'" in missing.json()["detail"]
    missing = api.post(base, {"criterion": "nope", "threshold": 0.5}, format="json")
    assert missing.status_code == 400 and "has no criterion 'nope'" in missing.json()["detail"]
    refused = api.post(base, {"criterion": "quality", "threshold": 5}, format="json")
    assert refused.status_code == 400 and "threshold" in str(refused.json())
    done = api.post(base, {"criterion": "quality", "threshold": 0.5}, format="json")
    assert [w["external_id"] for w in done.json()] == ["careless"]
    careful = Worker.objects.get(external_id="careful")
    patched = api.patch(
        f"/api/campaigns/{campaign.slug}/workers/{careful.pk}/", {"expert": True}, format="json"
    )
    assert patched.json()["expert"] is True
    viewer = api_as(people["viewer"])
    assert viewer.get(base, {"criterion": "quality"}).status_code == 200
    assert viewer.post(base, {"criterion": "quality", "threshold": 0.5}).status_code == 403
