"""Runs caught mid-computation, for the life-cycle tests."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from ranking.models import RankingRun


def _running(campaign, criterion, *, heartbeat_ago: float, **kwargs) -> RankingRun:
    """A run a worker claimed and then stopped reporting on (as if it died)."""
    beat = timezone.now() - timedelta(seconds=heartbeat_ago)
    return RankingRun.objects.create(
        campaign=campaign,
        criterion=criterion,
        status=RankingRun.Status.RUNNING,
        started_at=beat,
        heartbeat_at=beat,
        attempts=1,
        runs_done=min(10, kwargs.get("runs", 200)),
        progress=0.2,
        **kwargs,
    )
