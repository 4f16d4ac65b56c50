"""Celery tasks: thin interfaces that load by id and call a service."""

from __future__ import annotations

from celery import shared_task

from .models import RankingRun
from .services import ranking_run_compute


@shared_task(name="ranking.compute_run")
def ranking_run_compute_task(run_id: int) -> str:
    run = RankingRun.objects.select_related("criterion").get(pk=run_id)
    ranking_run_compute(run=run)
    return run.status
