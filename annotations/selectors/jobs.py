"""Reads about background import jobs (``ImportJob``): one by id, a campaign's active
one of a kind, and a job's progress as its page shows it."""

from __future__ import annotations

from django.core.cache import cache

from annotations.models import Campaign, ImportJob


def import_job_by_id(campaign: Campaign, pk: int) -> ImportJob | None:
    """The campaign's import job with id ``pk``, or None (another campaign's is None too)."""
    return campaign.import_jobs.filter(pk=pk).first()


def import_job_active(*, campaign: Campaign, kind: str) -> ImportJob | None:
    """The campaign's newest pending or running job of ``kind`` (``ImportJob.ACTIVE``),
    if any."""
    return (
        ImportJob.objects.filter(campaign=campaign, kind=kind, status__in=ImportJob.ACTIVE)
        .order_by("-created_at")
        .first()
    )


def import_job_progress_key(job_id: int) -> str:
    """The cache key a running job's progress is written under (by the importer's
    progress writer, ``annotations.importing.jobs``) and read from (here)."""
    return f"humaneval:import-job:{job_id}:progress"


def import_job_progress(*, job: ImportJob) -> tuple[int, int]:
    """(rows done, rows total) of a job, the freshest of the row and the cache (the
    import writes inside one transaction, whose row updates a page does not see until it
    commits; see ``annotations.importing.jobs``)."""
    running = job.status == ImportJob.Status.RUNNING
    cached = cache.get(import_job_progress_key(job.pk)) if running else None
    if cached is not None and cached[0] >= job.rows_done:
        return int(cached[0]), int(cached[1])
    return job.rows_done, job.rows_total
