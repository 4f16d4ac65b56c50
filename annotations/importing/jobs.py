"""Background import jobs (``ImportJob``): created, run by a Celery task, swept when lost."""

from __future__ import annotations

import io
import threading
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from celery import Task, current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connections, transaction
from django.db.models import Q
from django.utils import timezone

from annotations.importing.outputs import (
    Upload,
    outputs_import_uploads,
    outputs_refuse_unless_draft,
)
from annotations.models import Campaign, ImportJob
from common.errors import DomainError, ImportFileError


def _uploads_pack(uploads: Sequence[Upload]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for upload in uploads:
            archive.writestr(upload.name, upload.data)
    return buffer.getvalue()


def _uploads_unpack(data: bytes) -> list[Upload]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [Upload(name=n, data=archive.read(n)) for n in archive.namelist()]


def import_job_create(
    *,
    campaign: Campaign,
    uploads: Sequence[Upload],
    user: Any = None,
    queue: bool = True,
) -> ImportJob:
    """A pending job importing ``uploads`` as outputs; queued once the row is committed.

    The files are kept in the job (zipped), so that a Celery worker on another machine
    can read them; they are dropped when the job ends.
    """
    if not uploads:
        raise DomainError("Choose at least one file to upload.")
    outputs_refuse_unless_draft(campaign)
    with transaction.atomic():
        job = ImportJob.objects.create(
            campaign=campaign,
            kind="outputs",
            filename=", ".join(u.name for u in uploads)[:255],
            data=_uploads_pack(uploads),
            options={"files": [u.name for u in uploads]},
            created_by=user if user is not None and user.is_authenticated else None,
        )
        if queue:
            transaction.on_commit(lambda: _import_job_dispatch(job.pk))
    return job


#: A job kind run by a caller-supplied function instead of an importer: it gets the job
#: and the progress writer (``progress(done, total)``) and returns the job's summary,
#: whose ``rows`` (if any) becomes ``rows_done``/``rows_total``. The Celery task
#: (annotations/tasks.py, an interface) hands the runners in, so that this module never
#: imports the services they call (importing and services are independent layers).
JobRunner = Callable[[ImportJob, Callable[[int, int], None]], dict[str, Any]]


def job_create(
    *,
    campaign: Campaign,
    kind: str,
    title: str,
    options: dict[str, Any] | None = None,
    user: Any = None,
    queue: bool = True,
) -> ImportJob:
    """A pending background job of another kind than an upload (``"build"``: the task
    design), run by :func:`import_job_run` with the runner of its kind, with the same
    progress page, failure recording and lost-worker sweep as an import."""
    with transaction.atomic():
        job = ImportJob.objects.create(
            campaign=campaign,
            kind=kind,
            filename=title[:255],
            options=options or {},
            created_by=user if user is not None and user.is_authenticated else None,
        )
        if queue:
            transaction.on_commit(lambda: _import_job_dispatch(job.pk))
    return job


def job_active(*, campaign: Campaign, kind: str) -> ImportJob | None:
    """The campaign's pending or running job of ``kind``, if any."""
    return (
        ImportJob.objects.filter(
            campaign=campaign,
            kind=kind,
            status__in=[ImportJob.Status.PENDING, ImportJob.Status.RUNNING],
        )
        .order_by("-created_at")
        .first()
    )


#: the Celery task that runs a job (annotations/tasks.py), dispatched by name so that the
#: services never import the task module (tasks call services, not the other way round)
RUN_TASK = "annotations.import_job_run"


def _run_task() -> Task:
    return current_app.tasks[RUN_TASK]


def _import_job_dispatch(job_id: int) -> None:
    """Hand a committed job to Celery.

    Without a broker (the embedded set-up) Celery runs tasks in-process; the job then
    runs in a background thread of the web process (``IMPORTS_IN_THREAD``), so that the
    page can show its progress, as ranking runs do. ``apply`` keeps a failure in the
    task's result (the job records it): it never surfaces in the request that queued it.
    """
    task = _run_task()
    if not task.app.conf.task_always_eager:
        task.delay(job_id)
    elif settings.IMPORTS_IN_THREAD:
        threading.Thread(
            target=_import_job_in_thread, args=(job_id,), name=f"import-job-{job_id}", daemon=True
        ).start()
    else:
        task.apply(args=(job_id,))


def _import_job_in_thread(job_id: int) -> None:
    try:
        _run_task().apply(args=(job_id,))
    finally:
        connections.close_all()


def _progress_key(job_id: int) -> str:
    return f"humaneval:import-job:{job_id}:progress"


class _JobProgress:
    """Writes a job's ``rows_done``/``rows_total`` where a polling page can read them.

    The import writes inside one transaction, whose changes no other connection sees
    until it commits. On PostgreSQL the progress therefore goes through a connection of
    its own (autocommit); SQLite allows one writer at a time, so there it goes to the
    cache (the embedded set-up runs jobs in a thread of the web process, which shares
    the local-memory cache with the page). At most four writes a second.
    """

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.last = 0.0
        self.side: Any = None

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.last < 0.25:
            return
        self.last = now
        connection = connections["default"]
        if not connection.in_atomic_block:
            ImportJob.objects.filter(pk=self.job_id).update(rows_done=done, rows_total=total)
        elif connection.vendor == "postgresql":
            if self.side is None:
                self.side = connections.create_connection("default")
            with self.side.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {ImportJob._meta.db_table} "
                    "SET rows_done = %s, rows_total = %s WHERE id = %s",
                    [done, total, self.job_id],
                )
        cache.set(_progress_key(self.job_id), (done, total), timeout=24 * 3600)

    def close(self) -> None:
        if self.side is not None:
            self.side.close()
        cache.delete(_progress_key(self.job_id))


def import_job_progress(*, job: ImportJob) -> tuple[int, int]:
    """(rows done, rows total) of a job, the freshest of the row and the cache."""
    cached = cache.get(_progress_key(job.pk)) if job.status == ImportJob.Status.RUNNING else None
    if cached is not None and cached[0] >= job.rows_done:
        return int(cached[0]), int(cached[1])
    return job.rows_done, job.rows_total


def import_job_run(*, job: ImportJob, runners: Mapping[str, JobRunner] | None = None) -> ImportJob:
    """Run a pending job: import its files (or run its kind's runner from ``runners``)
    and record the result or the error.

    A refused file (``DomainError``) is a result, recorded on the job with the file,
    line and field; an unexpected failure is recorded and re-raised. Either way the
    stored files are dropped. Running a job that has started already does nothing.
    """
    claimed = ImportJob.objects.filter(pk=job.pk, status=ImportJob.Status.PENDING).update(
        status=ImportJob.Status.RUNNING, started_at=timezone.now()
    )
    job.refresh_from_db()
    if not claimed:
        return job
    progress = _JobProgress(job.pk)
    ratings: dict[str, Any] | None = None
    results: list[Any] = []
    try:
        if runners and job.kind in runners:
            ratings = runners[job.kind](job, progress)
            ratings.setdefault("rows", 0)
        elif job.kind == "ratings":  # column-mapped ratings (importing/mapped.py imports us)
            from annotations.importing.mapped import mapped_job_import

            ratings = mapped_job_import(
                job=job, uploads=_uploads_unpack(bytes(job.data)), progress=progress
            )
        else:
            results = outputs_import_uploads(
                campaign=job.campaign, uploads=_uploads_unpack(bytes(job.data)), progress=progress
            )
    except DomainError as exc:
        job.status = ImportJob.Status.FAILED
        job.error = str(exc)
        if isinstance(exc, ImportFileError):
            job.summary = {
                "file": exc.file,
                "line": exc.line,
                "field": exc.field,
                "reason": exc.reason,
            }
    except Exception:
        job.status = ImportJob.Status.FAILED
        job.error = (
            "The build failed unexpectedly; no task was built. Please try again."
            if job.kind == "build"
            else "The import failed unexpectedly; nothing was imported. Please try again."
        )
        _import_job_finish(job, progress)
        raise
    else:
        job.status = ImportJob.Status.DONE
        job.rows_done = job.rows_total = sum(r.outputs for r in results)
        if ratings is not None:
            job.rows_done = job.rows_total = ratings.get("judgements", ratings.get("rows", 0))
            job.summary = ratings
            _import_job_finish(job, progress)
            return job
        job.summary = {
            "files": [r.file for r in results],
            "outputs": sum(r.outputs for r in results),
            "systems": sum(r.systems for r in results),
            "items": sum(r.items for r in results),
            "identical_groups": sum(r.identical_groups for r in results),
            "systems_not_in_tasks": sorted({s for r in results for s in r.systems_not_in_tasks}),
        }
    _import_job_finish(job, progress)
    return job


def _import_job_finish(job: ImportJob, progress: _JobProgress) -> None:
    progress.close()
    job.data = b""
    job.finished_at = timezone.now()
    job.save(
        update_fields=[
            "status",
            "error",
            "summary",
            "rows_done",
            "rows_total",
            "data",
            "finished_at",
        ]
    )


def _duration(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{int(seconds // 3600)} h"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{seconds:g} s"


def import_jobs_sweep(
    *,
    stale_after: float | None = None,
    pending_timeout: float | None = None,
    campaign: Campaign | None = None,
) -> list[int]:
    """Fail import jobs whose worker was lost; return their ids.

    A running job that started more than ``stale_after`` seconds ago (default
    ``IMPORT_JOB_STALE_AFTER``; an upload is at most ``IMPORT_UPLOAD_MAX_BYTES`` and
    imports in well under a minute) lost its worker: SIGKILL, out of memory, a lost
    node, a restarted web process (the embedded set-up runs jobs in a thread). A
    pending job older than ``pending_timeout`` (default ``IMPORT_JOB_PENDING_TIMEOUT``)
    was never picked up. Both are failed with the reason and their stored files are
    dropped; nothing of theirs was written (an import is one transaction), so the
    designer uploads the files again. Each job is updated with a conditional UPDATE, so
    a job that ended meanwhile is left alone.
    """
    stale = settings.IMPORT_JOB_STALE_AFTER if stale_after is None else stale_after
    pending = settings.IMPORT_JOB_PENDING_TIMEOUT if pending_timeout is None else pending_timeout
    now = timezone.now()
    reasons = {
        ImportJob.Status.RUNNING: (
            Q(started_at__lt=now - timedelta(seconds=stale)),
            f"Not finished {_duration(stale)} after it started: the worker importing these "
            "files was lost (killed, out of memory or restarted). Nothing was imported; "
            "upload the files again.",
        ),
        ImportJob.Status.PENDING: (
            Q(created_at__lt=now - timedelta(seconds=pending)),
            f"Not started within {_duration(pending)}: no Celery worker picked it up. "
            "Nothing was imported; check that a worker is running, then upload the files "
            "again.",
        ),
    }
    base = ImportJob.objects.all()
    if campaign is not None:
        base = base.filter(campaign=campaign)
    ended: list[int] = []
    for status, (lost, reason) in reasons.items():
        for pk, kind in base.filter(lost, status=status).values_list("pk", "kind"):
            text = reason
            if kind == "build":  # a build is one transaction too: nothing of it was kept
                text = (
                    reason.replace("importing these files", "building the tasks")
                    .replace("Nothing was imported", "No task was built")
                    .replace("upload the files again", "build the tasks again")
                )
            if ImportJob.objects.filter(lost, pk=pk, status=status).update(
                status=ImportJob.Status.FAILED,
                error=text,
                data=b"",
                finished_at=now,
            ):
                cache.delete(_progress_key(pk))
                ended.append(pk)
    return sorted(ended)
