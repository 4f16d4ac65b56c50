"""Celery tasks of the annotations app: thin interfaces that load by id and call a service."""

from __future__ import annotations

from celery import shared_task

from annotations.models import ImportJob
from annotations.services.importing import import_job_run


@shared_task(name="annotations.import_job_run")
def import_job_run_task(job_id: int) -> str:
    job = ImportJob.objects.select_related("campaign").get(pk=job_id)
    return import_job_run(job=job).status
