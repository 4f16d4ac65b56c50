"""Ranking runs over the REST API: create (Celery, eager), status, result, export."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from ranking.models import RankingRun
from tests.annotations.designer_data import judged_campaign, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    pytest.importorskip("ranking.services", reason="the ranking engine is not importable yet")
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=6)
    client = APIClient()
    client.force_authenticate(people["owner"])
    return client, campaign


def test_create_run_follow_status_and_read_result(api, django_capture_on_commit_callbacks):
    client, campaign = api
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(
            f"/api/campaigns/{campaign.slug}/rankings/",
            {"criterion": "quality", "method": "wmt14", "runs": 20, "seed": 5},
            format="json",
        )
    assert created.status_code == 201, created.content
    run_id = created.json()["id"]
    status = client.get(f"/api/rankings/{run_id}/").json()
    assert status["status"] == "done" and status["progress"] == 1.0
    result = client.get(f"/api/rankings/{run_id}/result/").json()
    labels = [row["system"] for row in result["rows"]]
    assert sorted(labels) == ["alpha", "beta", "delta", "epsilon", "gamma"]
    assert all(row["rank_lo"] <= row["rank_hi"] for row in result["rows"])
    exported = client.get(f"/api/rankings/{run_id}/export/json/")
    assert exported.status_code == 200
    assert "alpha" in json.dumps(json.loads(exported.content))
    listed = client.get(f"/api/campaigns/{campaign.slug}/rankings/?status=done").json()
    assert [r["id"] for r in listed["results"]] == [run_id]


def test_result_of_pending_run_is_a_400_with_detail(api):
    client, campaign = api
    run = RankingRun.objects.create(campaign=campaign, criterion=campaign.criteria.get())
    response = client.get(f"/api/rankings/{run.pk}/result/")
    assert response.status_code == 400 and "not ready" in response.json()["detail"]


def test_bad_method_and_unknown_criterion_are_refused(api):
    client, campaign = api
    bad = client.post(
        f"/api/campaigns/{campaign.slug}/rankings/",
        {"criterion": "quality", "method": "elo"},
        format="json",
    )
    assert bad.status_code == 400
    missing = client.post(
        f"/api/campaigns/{campaign.slug}/rankings/", {"criterion": "nope"}, format="json"
    )
    assert missing.status_code == 400 and "no criterion 'nope'" in missing.json()["detail"]
