"""Background import jobs (``ImportJob``): created, run by a Celery task, swept when lost.

The job mechanism (dispatch, heartbeat thread, silence, give-back, durations) is
``common.jobs``, shared with ranking runs; this module keeps what is an import's own.
"""

from __future__ import annotations

import functools
import io
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connections, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from annotations.importing.outputs import (
    Upload,
    outputs_import_uploads,
    outputs_refuse_unless_draft,
    uploads_refuse_if_none,
)
from annotations.models import Campaign, ImportJob
from annotations.selectors.jobs import import_job_active, import_job_progress_key
from annotations.services.tasks import (
    DesignReport,
    campaign_design_refuse_stale,
    campaign_tasks_build,
    campaign_tasks_build_check,
    campaign_tasks_estimate,
)
from common import jobs
from common.errors import DomainError, ImportFileError
from common.queries import transient_error


def _uploads_pack(uploads: Sequence[Upload]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for upload in uploads:
            archive.writestr(upload.name, upload.data)
    return buffer.getvalue()


def uploads_unpack(data: bytes) -> list[Upload]:
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
    uploads_refuse_if_none(uploads)
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
            transaction.on_commit(lambda: import_job_dispatch(job.pk))
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
            transaction.on_commit(lambda: import_job_dispatch(job.pk))
    return job


def campaign_tasks_build_or_queue(
    *, campaign: Campaign, user: Any = None, seed: int | None = None, design: str | None = None
) -> DesignReport | ImportJob:
    """The designer's "Build tasks", on the pages and the API alike: built during the
    request when there are few (at most ``BUILD_INLINE_MAX_TASKS``; returns the build's
    report), else checked now (a ``DomainError`` for what would stop it) and built by a
    background "build" job whose page shows its progress (returns the job: the one
    already pending or running for the campaign, if any). ``design``: the design the
    requester saw (``campaign_design_token``); a build sent again after the tasks were
    built is refused (``StaleRequest``)."""
    if campaign_tasks_estimate(campaign=campaign) <= settings.BUILD_INLINE_MAX_TASKS:
        return campaign_tasks_build(campaign=campaign, seed=seed, design=design)
    campaign_tasks_build_check(campaign=campaign)
    active = import_job_active(campaign=campaign, kind="build")
    if active is not None:
        return active
    campaign_design_refuse_stale(campaign=campaign, design=design)
    return job_create(
        campaign=campaign, kind="build", title="the tasks", options={"seed": seed}, user=user
    )


#: the Celery task that runs a job (annotations/tasks.py), dispatched by name so that the
#: services never import the task module (tasks call services, not the other way round)
RUN_TASK = "annotations.import_job_run"


def import_job_dispatch(job_id: int) -> None:
    """Hand a committed job to Celery (``common.jobs.dispatch``: without a broker, a
    thread of the web process runs it, so that its page shows its progress; the job
    records its own failure, which never surfaces in the request that queued it)."""
    jobs.dispatch(RUN_TASK, job_id)


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
        cache.set(import_job_progress_key(self.job_id), (done, total), timeout=24 * 3600)

    def close(self) -> None:
        if self.side is not None:
            self.side.close()
        cache.delete(import_job_progress_key(self.job_id))


class JobLost(Exception):
    """The sweep handed this attempt's job out again: its import is rolled back."""


def _heartbeat(job: ImportJob) -> jobs.Heartbeat:
    """Beat a running job's heartbeat every ``IMPORT_JOB_BEAT_EVERY`` seconds from a
    thread of its own (``common.jobs.Heartbeat``, its own connection), whatever the
    import is doing, so that a job silent for ``IMPORT_JOB_LOST_AFTER`` seconds has lost
    its process. PostgreSQL only: on SQLite the import holds the one write lock (the
    embedded set-up keeps the ``IMPORT_JOB_STALE_AFTER`` rule)."""
    return jobs.Heartbeat(
        ImportJob.objects.filter(pk=job.pk, status=ImportJob.Status.RUNNING, attempts=job.attempts),
        every=settings.IMPORT_JOB_BEAT_EVERY,
        name=f"import-job-{job.pk}-heartbeat",
    )


def _import_job_claim(job: ImportJob) -> bool:
    """Mark a pending job running for a new attempt (a conditional UPDATE: of two
    messages for one job, one runs it)."""
    now = timezone.now()
    beats = connections["default"].vendor == "postgresql"
    claimed = jobs.claim(
        ImportJob.objects.filter(pk=job.pk, status=ImportJob.Status.PENDING),
        status=ImportJob.Status.RUNNING,
        started_at=now,
        heartbeat_at=now if beats else None,
        attempts=F("attempts") + 1,
    )
    job.refresh_from_db()
    return claimed


def _import_job_still_ours(job: ImportJob) -> None:
    """Inside the import's transaction, after its last progress report: lock the job's
    row and roll the import back (``JobLost``) when the sweep has handed the job out
    again meanwhile (this process was frozen, not dead), so that a job never imports twice."""
    if not (
        ImportJob.objects.select_for_update()
        .filter(pk=job.pk, status=ImportJob.Status.RUNNING, attempts=job.attempts)
        .exists()
    ):
        raise JobLost()


def _import_job_give_back(job: ImportJob) -> None:
    """After a transient database error: the job back to pending (nothing of it was
    written), if the database answers; else its heartbeat stops and the sweep does it."""
    jobs.give_back(
        ImportJob.objects.filter(pk=job.pk, status=ImportJob.Status.RUNNING, attempts=job.attempts),
        status=ImportJob.Status.PENDING,
        heartbeat_at=timezone.now(),
        rows_done=0,
    )


def import_job_run(*, job: ImportJob, runners: Mapping[str, JobRunner] | None = None) -> ImportJob:
    """Run a pending job: import its files (or run its kind's runner from ``runners``)
    and record the result or the error.

    A refused file (``DomainError``) is a result, recorded on the job with the file,
    line and field; an unexpected failure is recorded and re-raised. Either way the
    stored files are dropped. Running a job that has started already does nothing.

    A transient database error (``TRANSIENT_DATABASE_ERRORS``: the connection dropped,
    the server restarted), or any error met on a connection closed under it
    (``common.queries.transient_error``), is not the job's failure: the import is rolled
    back (one transaction), the job given back (pending) and the error raised for the task
    to retry (an ``OperationalError`` for a lost connection). While it runs, the job's heartbeat beats (:func:`_heartbeat`); the import
    commits only if the job is still this attempt's (:func:`_import_job_still_ours`).
    """
    if not _import_job_claim(job):
        return job
    progress = _JobProgress(job.pk)
    heartbeat = _heartbeat(job)
    ratings: dict[str, Any] | None = None
    results: list[Any] = []
    try:
        with transaction.atomic():
            if runners and job.kind in runners:
                ratings = runners[job.kind](job, progress)
                ratings.setdefault("rows", 0)
            else:
                results = outputs_import_uploads(
                    campaign=job.campaign,
                    uploads=uploads_unpack(bytes(job.data)),
                    progress=progress,
                )
            _import_job_still_ours(job)
    except JobLost:
        progress.close()
        job.refresh_from_db()
        return job
    except Exception as exc:
        transient = transient_error(exc)
        if transient is not None:
            # The connection dropped or was terminated under another error (psycopg2 may
            # raise a SystemError): not the job's failure, and none could be written.
            # Given back for the task's retry.
            progress.close()
            _import_job_give_back(job)
            raise transient from transient.__cause__
        if not isinstance(exc, DomainError):
            job.status = ImportJob.Status.FAILED
            job.error = (
                "The build failed unexpectedly; no task was built. Please try again."
                if job.kind == "build"
                else "The import failed unexpectedly; nothing was imported. Please try again."
            )
            _import_job_finish(job, progress)
            raise
        _import_job_refused(job, exc)
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
            "notes": [w for r in results for w in r.warnings],
        }
    finally:
        heartbeat.stop()
    _import_job_finish(job, progress)
    return job


def _import_job_refused(job: ImportJob, exc: DomainError) -> None:
    """A refused file (or build) recorded on the job, with the file, line and field."""
    job.status = ImportJob.Status.FAILED
    job.error = str(exc)
    if isinstance(exc, ImportFileError):
        job.summary = {
            "file": exc.file,
            "line": exc.line,
            "field": exc.field,
            "reason": exc.reason,
        }


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


def import_jobs_sweep(
    *,
    stale_after: float | None = None,
    pending_timeout: float | None = None,
    lost_after: float | None = None,
    queued_after: float | None = None,
    campaign: Campaign | None = None,
) -> list[int]:
    """Hand out again the import jobs whose worker was lost; fail those that cannot go
    on; return the ids of the jobs failed.

    - A running job whose heartbeat has been silent for ``lost_after`` seconds (default
      ``IMPORT_JOB_LOST_AFTER``; PostgreSQL, :func:`_heartbeat`) lost its process
      (SIGKILL, out of memory, a lost node): nothing of it was written (an import is one
      transaction), so it goes back to pending and to the queue, its files still kept;
      a job started ``IMPORT_JOB_MAX_ATTEMPTS`` times is failed with the reason.
    - A running job that started more than ``stale_after`` seconds ago (default
      ``IMPORT_JOB_STALE_AFTER``; the only rule on SQLite, where jobs do not beat) is
      failed.
    - A pending job sent ``queued_after`` seconds ago (default
      ``IMPORT_JOB_QUEUED_AFTER``) and not started (its message was held by a worker
      that died, or dropped after a transient error) is sent again: a job is claimed
      with a conditional UPDATE, so a second message runs nothing twice. One pending for
      longer than ``pending_timeout`` (default ``IMPORT_JOB_PENDING_TIMEOUT``) was never
      picked up: it is failed.

    Failed jobs' stored files are dropped; the designer uploads them again. Each job is
    updated with a conditional UPDATE, so a job that moved on meanwhile is left alone.
    """
    timings = jobs.timings("IMPORT_JOB")
    stale = timings.stale_after if stale_after is None else stale_after
    pending = timings.pending_timeout if pending_timeout is None else pending_timeout
    lost = timings.lost_after if lost_after is None else lost_after
    queued = timings.queued_after if queued_after is None else queued_after
    now = timezone.now()
    base = ImportJob.objects.all()
    if campaign is not None:
        base = base.filter(campaign=campaign)
    silent = Q(status=ImportJob.Status.RUNNING) & jobs.silent_since(now=now, after=lost)
    cap = timings.max_attempts
    for pk in base.filter(silent, attempts__lt=cap).values_list("pk", flat=True):
        if ImportJob.objects.filter(silent, pk=pk, attempts__lt=cap).update(
            status=ImportJob.Status.PENDING, heartbeat_at=now, rows_done=0
        ):
            cache.delete(import_job_progress_key(pk))
            transaction.on_commit(functools.partial(import_job_dispatch, pk))
    reasons = [
        (
            silent & Q(attempts__gte=cap),
            f"The worker importing these files was lost {cap} times (killed, out of memory "
            "or restarted, or its database connection lost). Nothing was imported; upload "
            "the files again, perhaps split in smaller ones.",
        ),
        (
            Q(status=ImportJob.Status.RUNNING)
            & jobs.silent_since(now=now, after=stale, field="started_at"),
            f"Not finished {jobs.duration(stale)} after it started: the worker importing "
            "these files was lost (killed, out of memory or restarted). Nothing was "
            "imported; upload the files again.",
        ),
        (
            Q(status=ImportJob.Status.PENDING)
            & jobs.silent_since(now=now, after=pending, field="created_at"),
            f"Not started within {jobs.duration(pending)}: no Celery worker picked it up. "
            "Nothing was imported; check that a worker is running, then upload the files "
            "again.",
        ),
    ]
    ended = [pk for condition, reason in reasons for pk in _fail(base, condition, reason, now=now)]
    waiting = Q(status=ImportJob.Status.PENDING) & (
        jobs.silent_since(now=now, after=queued)
        | (
            Q(heartbeat_at__isnull=True)
            & jobs.silent_since(now=now, after=queued, field="created_at")
        )
    )
    for pk in base.filter(waiting).values_list("pk", flat=True):
        if ImportJob.objects.filter(waiting, pk=pk).update(heartbeat_at=now):
            transaction.on_commit(functools.partial(import_job_dispatch, pk))
    return sorted(ended)


def _build_reason(reason: str) -> str:
    """A sweep's reason for an import, worded for a build (one transaction too: nothing
    of it was kept)."""
    return (
        reason.replace("importing these files", "building the tasks")
        .replace("Nothing was imported", "No task was built")
        .replace("upload the files again, perhaps split in smaller ones", "build the tasks again")
        .replace("upload the files again", "build the tasks again")
    )


def _fail(base: QuerySet[ImportJob], condition: Q, reason: str, *, now: datetime) -> list[int]:
    """Fail the jobs matching ``condition`` with ``reason`` (their files dropped), each
    with a conditional UPDATE (a job that moved on meanwhile is left alone)."""
    failed: list[int] = []
    for pk, kind in base.filter(condition).values_list("pk", "kind"):
        if ImportJob.objects.filter(condition, pk=pk).update(
            status=ImportJob.Status.FAILED,
            error=_build_reason(reason) if kind == "build" else reason,
            data=b"",
            finished_at=now,
        ):
            cache.delete(import_job_progress_key(pk))
            failed.append(pk)
    return failed
