"""Celery tasks of the annotations app: thin interfaces that load by id and call a service.

The import services dispatch ``annotations.import_job_run`` by name (they never import
this module); it also runs the background "build" job of a large campaign's tasks,
through ``RUNNERS``. ``annotations.sweep_import_jobs`` (celery beat, or the embedded beat
without a broker, every minute) hands out again the jobs whose worker was lost, or fails
them with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import shared_task

from annotations.importing.jobs import (
    JobRunner,
    import_job_run,
    import_jobs_sweep,
    uploads_unpack,
)
from annotations.importing.mapped import mapped_job_import
from annotations.models import ImportJob
from annotations.services.tasks import campaign_tasks_build
from common.queries import TRANSIENT_DATABASE_ERRORS


def _build(job: ImportJob, progress: Callable[[int, int], None]) -> dict[str, Any]:
    """The "build" job: the designer's "Build tasks" on a large campaign."""
    report = campaign_tasks_build(
        campaign=job.campaign, seed=job.options.get("seed"), progress=progress
    )
    return {
        "tasks": sum(c.tasks for c in report.criteria),
        "criteria": [c.criterion for c in report.criteria],
        "seed": report.seed,
        "deleted_tasks": report.deleted_tasks,
        "rows": sum(c.tasks for c in report.criteria),
    }


def _ratings(job: ImportJob, progress: Callable[[int, int], None]) -> dict[str, Any]:
    """The "ratings" job: a column-mapped ratings file (``importing.mapped``)."""
    return mapped_job_import(job=job, uploads=uploads_unpack(bytes(job.data)), progress=progress)


#: Job kinds run by a service rather than the outputs importer (``importing.jobs.JobRunner``).
RUNNERS: dict[str, JobRunner] = {"build": _build, "ratings": _ratings}


@shared_task(
    name="annotations.import_job_run",
    acks_late=True,
    reject_on_worker_lost=True,
    # The database dropped the connection or restarted: the service gave the job back
    # (pending); try again after 2, 4, 8 ... 60 s.
    autoretry_for=TRANSIENT_DATABASE_ERRORS,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=False,
    max_retries=8,
)
def import_job_run_task(job_id: int) -> str:
    job = ImportJob.objects.select_related("campaign").get(pk=job_id)
    return import_job_run(job=job, runners=RUNNERS).status


@shared_task(name="annotations.sweep_import_jobs", ignore_result=True)
def import_jobs_sweep_task() -> list[int]:
    return import_jobs_sweep()
