"""The build API (annotations/apis/lifecycle.py) answers 202 with the job of a large build."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from annotations.models import Campaign, ImportJob
from tests.annotations.large_campaign import _campaign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_process(settings):
    settings.JOBS_IN_THREAD = False


def test_the_api_answers_202_with_the_job(settings, django_capture_on_commit_callbacks, api_as):
    owner = User.objects.create(username="owner")
    campaign = _campaign(owner)
    settings.BUILD_INLINE_MAX_TASKS = 100
    client = api_as(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/campaigns/{campaign.slug}/build/", {"seed": 4}, format="json")
    assert response.status_code == 202, response.content
    job = ImportJob.objects.get(pk=response.json()["job"])
    assert job.status == ImportJob.Status.DONE and job.summary["seed"] == 4
    assert Campaign.objects.get(pk=campaign.pk).task_seed == 4


def test_a_retried_build_with_design_answers_409_and_keeps_the_tasks(client):
    """``design`` makes a retried build safe: the second send answers 409 and the tasks
    (and their seed) stay; without it, a build rebuilds as before."""
    from rest_framework.test import APIClient

    owner = User.objects.create(username="api-owner")
    campaign = _campaign(owner)
    api = APIClient()
    api.force_authenticate(owner)
    url = f"/api/campaigns/{campaign.slug}/build/"
    assert api.post(url, {"design": "none"}, format="json").status_code == 200
    campaign.refresh_from_db()
    seed = campaign.task_seed
    again = api.post(url, {"design": "none"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert "design" in again.json()["fields"]
    campaign.refresh_from_db()
    assert campaign.task_seed == seed
    assert api.post(url, {"design": str(seed), "seed": 5}, format="json").status_code == 200
    campaign.refresh_from_db()
    assert campaign.task_seed == 5
