"""The experts API (annotations/apis/experts.py) reports, marks and excludes, and gives the
ranking with and without the excluded and the reasons for a missing interval."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership, Judgement, Worker
from tests.annotations.designer_data import users
from tests.annotations.experts_data import experts_campaign

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


def test_the_api_gives_both_rankings_and_the_reasons(api_as):
    people = users()
    campaign, _criterion = experts_campaign()
    CampaignMembership.objects.create(
        campaign=campaign, user=people["viewer"], role=CampaignMembership.Role.VIEWER
    )
    api = api_as(people["viewer"])
    url = f"/api/campaigns/{campaign.slug}/experts/"
    report = api.get(url, {"criterion": "quality"}).json()
    assert report["excluded"] == 0 and report["spearman_with_excluded"] is None
    Worker.objects.filter(external_id="careful").update(excluded=True)
    careless = Judgement.objects.filter(worker__external_id="careless").order_by("pk")
    Judgement.objects.filter(pk__in=list(careless.values_list("pk", flat=True)[1:])).delete()
    report = api.get(url, {"criterion": "quality"}).json()
    assert report["excluded"] == 1
    assert report["spearman_with_excluded"]["value"] == pytest.approx(1.0)
    alpha = next(w["alpha"] for w in report["workers"] if w["worker"] == "careless")
    assert alpha["value"] is not None and alpha["low"] is None
    assert "one item" in alpha["interval_reason"]
