"""Celery tasks: thin interfaces that load by id and call a service.

``ranking.compute_run`` is acknowledged late and rejected back to the queue when its
worker process dies (SIGKILL, out of memory), so another worker picks it up; the
service counts attempts and gives up after ``RANKING_MAX_ATTEMPTS``. Soft and hard time
limits bound a run's wall time. ``ranking.sweep_runs`` (celery beat, every minute;
without a broker the embedded beat, ``common.jobs.beat_start``) fails runs whose
heartbeat stopped and re-dispatches lost chunks (silent for ``RANKING_LOST_AFTER``) and
chunks whose message a dead worker held; a chunk that meets a dropped database
connection is given back and retried with a backoff.

A chunked run is planned by ``ranking.compute_run`` and computed by
``ranking.compute_chunk`` tasks of one or several consecutive chunks each (about three
per worker process, ``RANKING_WORKERS``), on however many workers there are; each chunk is
acknowledged late and rejected back to the queue when its worker dies, like the run.
"""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings

from common.queries import TRANSIENT_DATABASE_ERRORS
from ranking.models import RankingRun
from ranking.services.compute import ranking_chunk_compute, ranking_run_compute
from ranking.services.sweep import ranking_runs_sweep


@shared_task(
    bind=True,
    name="ranking.compute_run",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.RANKING_SOFT_TIME_LIMIT,
    time_limit=settings.RANKING_TIME_LIMIT,
    # The database dropped the connection or restarted while the run was planned (or, for
    # a run created before chunking, computed): try again after 2, 4, 8 ... 60 s.
    autoretry_for=TRANSIENT_DATABASE_ERRORS,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=False,
    max_retries=8,
)
def ranking_run_compute_task(self: Task, run_id: int) -> str:
    run = RankingRun.objects.select_related("criterion").filter(pk=run_id).first()
    if run is None:  # deleted while queued
        return "deleted"
    # A chunked run's chunks go to the queue this message came from.
    queue = (self.request.delivery_info or {}).get("routing_key") or None
    ranking_run_compute(run=run, queue=queue)
    return run.status


@shared_task(
    name="ranking.compute_chunk",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.RANKING_SOFT_TIME_LIMIT,
    time_limit=settings.RANKING_TIME_LIMIT,
    # The database dropped the connection or restarted: the service gave the chunk back;
    # try again after 2, 4, 8 ... 60 s (Celery's Django fix-up opens a fresh connection).
    autoretry_for=TRANSIENT_DATABASE_ERRORS,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=False,
    max_retries=8,
)
def ranking_chunk_compute_task(run_id: int, index: int, count: int = 1) -> str:
    # count: the chunks from index on that this message hands out (one group of the run,
    # ranking.stats.chunk_groups); messages sent before groups carry one chunk
    return ranking_chunk_compute(run_id=run_id, index=index, count=count)


@shared_task(name="ranking.sweep_runs", ignore_result=True)
def ranking_runs_sweep_task() -> list[int]:
    return ranking_runs_sweep()


@shared_task(name="ranking.adaptive_step", ignore_result=True)
def adaptive_step_task() -> list[int]:
    """Adaptive campaigns (celery beat or the embedded beat, every minute): a batch for
    each criterion whose tasks run low (``ranking.services.adaptive``)."""
    from ranking.services.adaptive import adaptive_step

    return [batch.pk for batch in adaptive_step()]
