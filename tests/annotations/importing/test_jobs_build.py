"""A lost build is failed by the import jobs' sweep, in its own words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from annotations.importing.jobs import campaign_tasks_build_or_queue, import_jobs_sweep
from annotations.models import ImportJob
from tests.annotations.large_campaign import _campaign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_process(settings):
    settings.JOBS_IN_THREAD = False


def test_a_lost_build_is_failed_by_the_sweep_with_its_own_words():
    owner = User.objects.create(username="owner")
    campaign = _campaign(owner)
    job = ImportJob.objects.create(
        campaign=campaign, kind="build", filename="the tasks", status=ImportJob.Status.RUNNING
    )
    ImportJob.objects.filter(pk=job.pk).update(started_at=timezone.now() - timedelta(hours=2))
    assert import_jobs_sweep(stale_after=60) == [job.pk]
    job.refresh_from_db()
    assert "building the tasks was lost" in job.error and "build the tasks again" in job.error


def test_build_or_queue_builds_a_small_campaign_and_queues_a_large_one_once(settings):
    """The one rule the page and the API share (they wrote it each before)."""
    owner = User.objects.create(username="owner")
    campaign = _campaign(owner)  # 20 items x 3 criteria x 2 tasks = 120 tasks
    settings.BUILD_INLINE_MAX_TASKS = 100
    job = campaign_tasks_build_or_queue(campaign=campaign, user=owner, seed=7)
    assert isinstance(job, ImportJob) and job.kind == "build" and job.options == {"seed": 7}
    again = campaign_tasks_build_or_queue(campaign=campaign, user=owner)
    assert again == job and ImportJob.objects.count() == 1
    assert not campaign.tasks.exists()
    settings.BUILD_INLINE_MAX_TASKS = 120
    report = campaign_tasks_build_or_queue(campaign=campaign, seed=7)
    assert not isinstance(report, ImportJob) and report.seed == 7
    assert campaign.tasks.count() == 120
