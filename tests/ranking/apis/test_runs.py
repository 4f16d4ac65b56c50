"""Ranking runs over the REST API: create (Celery, eager), status, result, export."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from ranking.models import RankingRun
from ranking.selectors.content_checks import content_check_summary
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.annotations.designer_data import judged_campaign, users
from tests.ranking.planted import checked_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    pytest.importorskip("ranking.services.runs", reason="the ranking engine is not importable yet")
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


# Bounded inputs, progress, cancel, retry, delete --------------------------------------------


def _post(client, campaign, **fields):
    return client.post(
        f"/api/campaigns/{campaign.slug}/rankings/",
        {"criterion": "quality", "method": "wmt14", "seed": 1, **fields},
        format="json",
    )


def test_runs_are_capped_at_the_web_forms_limit(api, django_capture_on_commit_callbacks):
    client, campaign = api
    refused = _post(client, campaign, runs=100_001)
    assert refused.status_code == 400
    assert "100000" in json.dumps(refused.json()).replace(",", "")
    assert not RankingRun.objects.exists()
    with django_capture_on_commit_callbacks(execute=False) as queued:
        accepted = _post(client, campaign, runs=100_000)
    assert accepted.status_code == 201 and accepted.json()["runs"] == 100_000
    assert len(queued) == 1


def test_a_designer_cannot_queue_more_than_the_cap(
    api, settings, django_capture_on_commit_callbacks
):
    client, campaign = api
    settings.RANKING_MAX_ACTIVE_RUNS_PER_USER = 2
    with django_capture_on_commit_callbacks(execute=False):
        assert _post(client, campaign, runs=10, seed=1).status_code == 201
        assert _post(client, campaign, runs=10, seed=2).status_code == 201
        # The same request as a pending one is a retry: that run back, not a third.
        again = _post(client, campaign, runs=10, seed=2)
        third = _post(client, campaign, runs=10, seed=3)
    assert again.status_code == 200
    assert third.status_code == 400
    assert "already have 2 ranking run(s) queued or running (at most 2" in third.json()["detail"]


def test_a_retried_post_gets_the_pending_run_not_a_second(api, django_capture_on_commit_callbacks):
    """A client that sends its POST again (a timeout, a retry) while the first run is
    still pending gets that run (200), not a second identical run; another seed, another
    method or a slice is another request (201)."""
    client, campaign = api
    with django_capture_on_commit_callbacks(execute=False):
        first = _post(client, campaign, runs=20)
        again = _post(client, campaign, runs=20)
        other = _post(client, campaign, runs=20, seed=7)
    assert (first.status_code, again.status_code, other.status_code) == (201, 200, 201)
    assert again.json()["id"] == first.json()["id"] != other.json()["id"]
    assert RankingRun.objects.count() == 2
    RankingRun.objects.filter(pk=first.json()["id"]).update(status="done")
    after = _post(client, campaign, runs=20)
    assert after.status_code == 201 and after.json()["id"] not in (
        first.json()["id"],
        other.json()["id"],
    )


def test_progress_is_visible_while_it_runs(api):
    client, campaign = api
    run = RankingRun.objects.create(
        campaign=campaign,
        criterion=campaign.criteria.get(),
        runs=1000,
        status="running",
        runs_done=400,
        progress=0.4,
    )
    data = client.get(f"/api/rankings/{run.pk}/").json()
    assert (data["runs_done"], data["runs"], data["progress"]) == (400, 1000, 0.4)
    assert "heartbeat_at" in data and data["attempts"] == 0


def test_cancel_retry_and_delete_over_the_api(api, django_capture_on_commit_callbacks):
    client, campaign = api
    with django_capture_on_commit_callbacks(execute=False):
        run_id = _post(client, campaign, runs=20).json()["id"]
    assert client.delete(f"/api/rankings/{run_id}/").status_code == 400  # still queued
    cancelled = client.post(f"/api/rankings/{run_id}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    again = client.post(f"/api/rankings/{run_id}/cancel/")
    assert again.status_code == 400 and "only a queued or running run" in again.json()["detail"]
    with django_capture_on_commit_callbacks(execute=True):
        retried = client.post(f"/api/rankings/{run_id}/retry/")
    assert retried.status_code == 200
    assert client.get(f"/api/rankings/{run_id}/").json()["status"] == "done"
    assert client.delete(f"/api/rankings/{run_id}/").status_code == 204
    assert client.get(f"/api/rankings/{run_id}/").status_code == 404


def test_viewers_cannot_cancel_or_delete(api):
    from tests.annotations.designer_data import add_member

    client, campaign = api
    from django.contrib.auth.models import User

    viewer = User.objects.create_user("just-viewing")
    add_member(campaign, viewer, "viewer")
    run = RankingRun.objects.create(campaign=campaign, criterion=campaign.criteria.get())
    client.force_authenticate(viewer)
    assert client.get(f"/api/rankings/{run.pk}/").status_code == 200
    assert client.post(f"/api/rankings/{run.pk}/cancel/").status_code == 403
    assert client.delete(f"/api/rankings/{run.pk}/").status_code == 403
    assert RankingRun.objects.get(pk=run.pk).status == "pending"


def test_parameters_are_checked_by_the_one_check_before_anything_is_stored(api):
    client, campaign = api
    for fields, field, message in (
        ({"parameters": {"sigma": 1.0}}, "parameters", "unknown parameter 'sigma'"),
        ({"parameters": {"sigma0": "wide"}}, "parameters", "'sigma0' must be a number"),
        ({"parameters": [1, 2]}, "parameters", "name: value pairs"),
        ({"confidence": 1.5}, "confidence", "less than or equal to 0.999"),
    ):
        response = _post(client, campaign, **fields)
        assert response.status_code == 400, fields
        assert any(message in m for m in response.json()["fields"][field]), response.json()
    assert not RankingRun.objects.exists()


def test_the_result_gives_the_content_check_summary_the_page_shows():
    campaign, criterion, owner = checked_campaign()
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, runs=20, queue=False)
    )
    client = APIClient()
    client.force_authenticate(owner)
    body = client.get(f"/api/rankings/{run.pk}/result/").json()["content_checks"]
    summary = content_check_summary(run=run)
    assert summary is not None
    assert body == {
        "checks": ["added", "missing", "perfect"],
        "confidence": 0.95,
        "rows": [
            {
                "system": row.system,
                "outputs": row.outputs,
                "cells": [
                    {"ticked": c.ticked, "rate": c.rate, "lo": c.lo, "hi": c.hi} for c in row.cells
                ],
            }
            for row in summary.rows
        ],
    }
    assert body["rows"][3]["cells"][1]["ticked"] == 15
    criterion.content_checks = []
    criterion.save(update_fields=["content_checks"])
    assert client.get(f"/api/rankings/{run.pk}/result/").json()["content_checks"] is None


@pytest.mark.parametrize(
    ("confidence", "accepted"), [(0.3, False), (0.5, True), (0.999, True), (0.9995, False)]
)
def test_a_runs_confidence_has_the_run_pages_bounds(
    api, django_capture_on_commit_callbacks, confidence, accepted
):
    from django.core.exceptions import ValidationError

    from ranking.forms.runs import RankingRunForm

    client, campaign = api
    with django_capture_on_commit_callbacks(execute=False):
        answer = _post(client, campaign, runs=10, confidence=confidence)
    assert (answer.status_code == 201) is accepted, answer.content
    field = RankingRunForm.base_fields["confidence"]
    page_ok = True
    try:
        field.clean(str(confidence))
    except ValidationError:
        page_ok = False
    assert page_ok is accepted
