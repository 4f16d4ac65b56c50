"""Celery tasks: thin interfaces that load by id and call a service.

``ranking.compute_run`` is acknowledged late and rejected back to the queue when its
worker process dies (SIGKILL, out of memory), so another worker picks it up; the
service counts attempts and gives up after ``RANKING_MAX_ATTEMPTS``. Soft and hard time
limits bound a run's wall time. ``ranking.sweep_runs`` (celery beat, every minute)
fails runs whose heartbeat stopped.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from .models import RankingRun
from .services import ranking_run_compute, ranking_runs_sweep


@shared_task(
    name="ranking.compute_run",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.RANKING_SOFT_TIME_LIMIT,
    time_limit=settings.RANKING_TIME_LIMIT,
)
def ranking_run_compute_task(run_id: int) -> str:
    run = RankingRun.objects.select_related("criterion").filter(pk=run_id).first()
    if run is None:  # deleted while queued
        return "deleted"
    ranking_run_compute(run=run)
    return run.status


@shared_task(name="ranking.sweep_runs", ignore_result=True)
def ranking_runs_sweep_task() -> list[int]:
    return ranking_runs_sweep()
