"""Celery tasks of the annotations app: thin interfaces that load by id and call a service.

The import services dispatch ``annotations.import_job_run`` by name (they never import
this module); ``annotations.sweep_import_jobs`` (celery beat, every minute) fails jobs
whose worker was lost.
"""

from __future__ import annotations

from celery import shared_task

from annotations.importing.jobs import import_job_run, import_jobs_sweep
from annotations.models import ImportJob


@shared_task(name="annotations.import_job_run")
def import_job_run_task(job_id: int) -> str:
    job = ImportJob.objects.select_related("campaign").get(pk=job_id)
    return import_job_run(job=job).status


@shared_task(name="annotations.sweep_import_jobs", ignore_result=True)
def import_jobs_sweep_task() -> list[int]:
    return import_jobs_sweep()
