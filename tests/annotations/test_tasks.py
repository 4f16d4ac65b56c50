"""The import job's Celery task (annotations/tasks.py) retries a transient database error."""

from __future__ import annotations

import pytest
from django.db import OperationalError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _jobs_in_this_thread(settings):
    settings.JOBS_IN_THREAD = False


def test_the_task_retries_a_transient_database_error() -> None:
    from annotations.tasks import import_job_run_task

    assert OperationalError in getattr(import_job_run_task, "autoretry_for", ())
    assert import_job_run_task.max_retries and getattr(import_job_run_task, "retry_backoff", 0)
