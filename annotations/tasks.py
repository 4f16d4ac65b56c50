"""Celery tasks of the annotations app: thin interfaces that load by id and call a service.

The import services dispatch ``annotations.import_job_run`` by name (they never import
this module); ``annotations.sweep_import_jobs`` (celery beat, every minute) hands out again the
jobs whose worker was lost, or fails them with the reason.
"""

from __future__ import annotations

from celery import shared_task

from annotations.importing.jobs import (
    TRANSIENT_DATABASE_ERRORS,
    import_job_run,
    import_jobs_sweep,
)
from annotations.models import ImportJob


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
    return import_job_run(job=job).status


@shared_task(name="annotations.sweep_import_jobs", ignore_result=True)
def import_jobs_sweep_task() -> list[int]:
    return import_jobs_sweep()
