"""Background jobs, the one mechanism every app uses (ranking runs and their chunks,
import and build jobs): how a job is handed to a worker, how a running job shows it is
alive, when its silence means its worker was lost, how it is given back after a
transient database error, and how a message words a duration.

Each app keeps its own model and fields; this module only sees querysets and settings.
The settings have one naming: ``<KIND>_STALE_AFTER``, ``<KIND>_PENDING_TIMEOUT``,
``<KIND>_LOST_AFTER``, ``<KIND>_QUEUED_AFTER``, ``<KIND>_MAX_ATTEMPTS`` and
``<KIND>_BEAT_EVERY`` per kind (``RANKING``, ``IMPORT_JOB``; :func:`timings`), and
``JOBS_IN_THREAD`` for every kind (:func:`dispatch`).

Without a broker (the embedded set-up) there is no celery beat either: :func:`beat_start`
runs ``CELERY_BEAT_SCHEDULE`` (the sweeps, the adaptive step) in a thread of the web
process instead (``EMBEDDED_BEAT``, :func:`beat_tick`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any

from celery import Task, current_app
from django.conf import settings
from django.db import DatabaseError, connections
from django.db.models import Q, QuerySet
from django.utils import timezone

from common.queries import TRANSIENT_DATABASE_ERRORS

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Timings:
    """A job kind's sweep and heartbeat settings, in seconds (``max_attempts``: starts)."""

    stale_after: float
    pending_timeout: float
    lost_after: float
    queued_after: float
    max_attempts: int
    beat_every: float


def timings(kind: str) -> Timings:
    """The settings ``<kind>_STALE_AFTER`` ... ``<kind>_BEAT_EVERY``, read now (tests and
    the sweep commands may change them)."""
    return Timings(
        stale_after=getattr(settings, f"{kind}_STALE_AFTER"),
        pending_timeout=getattr(settings, f"{kind}_PENDING_TIMEOUT"),
        lost_after=getattr(settings, f"{kind}_LOST_AFTER"),
        queued_after=getattr(settings, f"{kind}_QUEUED_AFTER"),
        max_attempts=getattr(settings, f"{kind}_MAX_ATTEMPTS"),
        beat_every=getattr(settings, f"{kind}_BEAT_EVERY"),
    )


def task(name: str) -> Task:
    """The Celery task registered as ``name``; services dispatch tasks by name so that they
    never import the task modules (tasks call services, not the other way round)."""
    return current_app.tasks[name]


def dispatch(name: str, *args: Any, queue: str | None = None, thread: bool = True) -> None:
    """Hand a committed job to the task ``name`` with ``args``.

    - With a broker (Celery not eager): a message, to ``queue`` when given.
    - Without one (the embedded set-up), when ``JOBS_IN_THREAD`` and ``thread``: a daemon
      thread of this process runs the task, so that the page that started the job can
      show its progress instead of waiting for it. The job records its own failure.
    - Otherwise the task runs here, now (tests; the parts of a job that is already in
      its thread: ``thread=False``).
    """
    celery_task = task(name)
    if not celery_task.app.conf.task_always_eager:
        if queue:
            celery_task.apply_async(args=args, queue=queue)
        else:
            celery_task.delay(*args)
    elif thread and settings.JOBS_IN_THREAD:
        label = "-".join(str(a) for a in args)
        threading.Thread(
            target=_apply_in_thread, args=(name, args), name=f"{name}-{label}", daemon=True
        ).start()
    else:
        celery_task.apply(args=args)


def _apply_in_thread(name: str, args: tuple[Any, ...]) -> None:
    try:
        task(name).apply(args=args)
    finally:
        connections.close_all()  # this thread's own connections


# The embedded beat ----------------------------------------------------------------------

#: This process's beat: when each schedule entry last ran (``time.monotonic()`` seconds,
#: by entry name), the lock that keeps two ticks apart, and the thread.
_beat_last_run: dict[str, float] = {}
_beat_ticking = threading.Lock()
_beat_starting = threading.Lock()
_beat_thread: threading.Thread | None = None


def beat_embedded() -> bool:
    """Whether this process should run the beat schedule itself: Celery is eager (no
    broker, so no celery beat), jobs run in threads (``JOBS_IN_THREAD``; tests switch it
    off) and ``EMBEDDED_BEAT`` is on."""
    return bool(
        current_app.conf.task_always_eager and settings.JOBS_IN_THREAD and settings.EMBEDDED_BEAT
    )


def beat_start() -> bool:
    """Start this process's embedded beat (:func:`beat_embedded`), once: a daemon thread
    that ticks (:func:`beat_tick`) every ``SWEEP_EVERY`` seconds (sooner when an entry's
    schedule is shorter), the first tick one interval after the start, as celery beat.
    Idempotent; started by the web stack (``common.middleware.EmbeddedBeatMiddleware``),
    never by a management command or a test. Returns whether the beat runs."""
    global _beat_thread
    if not beat_embedded():
        return False
    with _beat_starting:
        if _beat_thread is None or not _beat_thread.is_alive():  # not alive: a forked child
            _beat_thread = threading.Thread(
                target=_beat_run, args=(threading.Event(),), name="embedded-beat", daemon=True
            )
            _beat_thread.start()
    return True


def beat_tick(now: float) -> list[str]:
    """Apply eagerly, here, each entry of ``CELERY_BEAT_SCHEDULE`` due at ``now``
    (monotonic seconds): never run by this process, or last run at least its own
    ``schedule`` seconds before. Returns the names of the entries applied. A task that
    fails is logged and the next one still runs; while another tick runs, a tick does
    nothing (returns ``[]``)."""
    if not _beat_ticking.acquire(blocking=False):
        return []
    try:
        applied: list[str] = []
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
            try:
                last = _beat_last_run.get(name)
                if last is not None and now - last < _seconds(entry["schedule"]):
                    continue
                _beat_last_run[name] = now
                applied.append(name)
                task(entry["task"]).apply(
                    args=entry.get("args", ()), kwargs=entry.get("kwargs", {}), throw=True
                )
            except Exception:
                logger.exception("The embedded beat's entry %s failed", name)
        return applied
    finally:
        _beat_ticking.release()


def _beat_run(stopped: threading.Event) -> None:
    """The beat thread: a tick every interval until ``stopped``; it never dies of an
    error, and closes its database connections after each tick."""
    while not stopped.wait(_beat_every()):
        try:
            beat_tick(time.monotonic())
        except Exception:
            logger.exception("The embedded beat's tick failed")
        finally:
            connections.close_all()  # this thread's own connections


def _beat_every() -> float:
    """Seconds between two ticks: ``SWEEP_EVERY``, or the shortest entry's schedule."""
    every = float(settings.SWEEP_EVERY)
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        try:
            every = min(every, _seconds(entry["schedule"]))
        except Exception:
            logger.exception("The embedded beat cannot read a schedule: %r", entry)
    return max(every, 0.1)


def _seconds(schedule: Any) -> float:
    """An entry's ``schedule`` in seconds: a number, a timedelta or a Celery ``schedule``
    (crontab entries are celery beat's alone)."""
    every = getattr(schedule, "run_every", schedule)
    return every.total_seconds() if isinstance(every, timedelta) else float(every)


def silent(heartbeat_at: datetime | None, *, now: datetime, after: float) -> bool:
    """Whether a heartbeat last beaten at ``heartbeat_at`` (None: never) has been silent
    for more than ``after`` seconds at ``now``: its worker is lost."""
    return heartbeat_at is None or heartbeat_at < now - timedelta(seconds=after)


def silent_since(*, now: datetime, after: float, field: str = "heartbeat_at") -> Q:
    """The rows whose ``field`` was beaten before ``now - after`` (the test of
    :func:`silent` in a query; a row never beaten is not matched)."""
    return Q(**{f"{field}__lt": now - timedelta(seconds=after)})


class Heartbeat:
    """Beats ``rows``' heartbeat (``field`` := now, one conditional UPDATE) every ``every``
    seconds from a thread of its own, with its own database connection, whatever the job
    is doing (a long transaction, a slow parser), until :meth:`stop`.

    ``rows`` is the job's row while it is still this attempt's (e.g. filtered on status
    and attempts), so that a job handed out again stops being beaten by the old attempt.
    Enabled by default on PostgreSQL only: SQLite allows one writer at a time, which the
    job itself holds. A transient database error drops the thread's connection and the
    next beat reconnects. Usable as a context manager.
    """

    def __init__(
        self,
        rows: QuerySet[Any],
        *,
        every: float,
        name: str = "job-heartbeat",
        field: str = "heartbeat_at",
        enabled: bool | None = None,
        clock: Callable[[], datetime] = timezone.now,
    ) -> None:
        self.rows, self.every, self.field, self.clock = rows, every, field, clock
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None
        if enabled is None:
            enabled = connections[rows.db].vendor == "postgresql"
        if enabled:
            self.thread = threading.Thread(target=self._beat, name=name, daemon=True)
            self.thread.start()

    def _beat(self) -> None:
        try:
            while not self.stopped.wait(self.every):
                try:
                    self.rows.update(**{self.field: self.clock()})
                except TRANSIENT_DATABASE_ERRORS:
                    connections[self.rows.db].close()  # this thread's: reconnect next time
        finally:
            connections.close_all()  # this thread's own connection

    def stop(self) -> None:
        self.stopped.set()
        if self.thread is not None:
            self.thread.join(timeout=10)

    def __enter__(self) -> Heartbeat:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def claim(rows: QuerySet[Any], **changes: Any) -> bool:
    """Take a job for this attempt with one conditional UPDATE of ``rows`` (e.g. the job
    while pending): of two messages for one job, exactly one claims it."""
    return bool(rows.update(**changes))


def give_back(rows: QuerySet[Any], **changes: Any) -> int:
    """After a transient database error: ``rows`` (the job while still this attempt's)
    updated with ``changes`` (back to pending), best effort; how many were. A dropped
    connection is replaced first, outside a transaction only (closing one an enclosing
    atomic block holds would break it); when the database is still unreachable the job's
    heartbeat stops and the sweep gives it back (0)."""
    try:
        connection = connections[rows.db]
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()  # a dropped one is never reused
        return rows.update(**changes)
    except DatabaseError:
        return 0


def duration(seconds: float) -> str:
    """A duration as every job message words it: ``45 s``, ``2 min``, ``1 h``,
    ``1 h 30 min``, ``2 min 5 s`` (whole seconds from a minute up)."""
    if seconds < 60:
        return f"{seconds:g} s"
    hours, rest = divmod(round(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h"] if hours else []
    if minutes:
        parts.append(f"{minutes} min")
    if secs:
        parts.append(f"{secs} s")
    return " ".join(parts)
