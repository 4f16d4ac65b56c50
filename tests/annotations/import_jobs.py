"""Outputs files large enough to import as a job, and import jobs in any state."""

from __future__ import annotations

from annotations.importing.jobs import import_job_create
from annotations.importing.outputs import Upload
from annotations.models import ImportJob


def outputs_csv(systems: int, items: int, *, prefix: str = "s") -> bytes:
    rows = [
        f"m{i},name[Place {i}],{prefix}{s},{prefix}{s} says something about place {i}.\n"
        for i in range(items)
        for s in range(systems)
    ]
    return ("item_id,input,system,output\n" + "".join(rows)).encode()


def _job(campaign, status: str, *, started_ago: float = 0, created_ago: float = 0) -> ImportJob:
    from datetime import timedelta

    from django.utils import timezone

    job = import_job_create(
        campaign=campaign, uploads=[Upload("a.csv", outputs_csv(1, 1))], queue=False
    )
    now = timezone.now()
    ImportJob.objects.filter(pk=job.pk).update(
        status=status,
        created_at=now - timedelta(seconds=created_ago),
        started_at=now - timedelta(seconds=started_ago) if status == "running" else None,
    )
    job.refresh_from_db()
    return job
