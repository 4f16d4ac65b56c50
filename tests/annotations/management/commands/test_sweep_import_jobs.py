"""The ``sweep_import_jobs`` command and its beat entry."""

from __future__ import annotations

import pytest

from tests.annotations.import_jobs import _job
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _jobs_in_this_thread(settings):
    settings.JOBS_IN_THREAD = False


def test_sweep_command_and_beat_entry(settings) -> None:
    from io import StringIO

    from django.core.management import call_command

    from annotations.tasks import import_jobs_sweep_task

    job = _job(CampaignFactory(), "running", started_ago=120)
    out = StringIO()
    call_command("sweep_import_jobs", "--stale-after", "60", stdout=out)
    assert out.getvalue().strip() == f"Failed 1 lost import job(s): {job.pk}."
    out = StringIO()
    call_command("sweep_import_jobs", stdout=out)
    assert out.getvalue().strip() == "No lost import jobs."
    entry = settings.CELERY_BEAT_SCHEDULE["annotations-sweep-import-jobs"]
    assert entry["task"] == import_jobs_sweep_task.name == "annotations.sweep_import_jobs"
    assert import_jobs_sweep_task.apply().get() == []
