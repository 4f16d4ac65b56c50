"""Runs caught mid-computation, for the life-cycle tests; and a run whose worker was lost,
with the check that reading it writes nothing (the pages' and the API's sweep tests)."""

from __future__ import annotations

from datetime import timedelta

from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from annotations.models import Campaign, Criterion
from ranking.models import RankingRun
from tests.ranking.planted import planted_campaign

WRITES = ("INSERT", "UPDATE", "DELETE")


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


def lost_campaign() -> tuple[Campaign, Criterion]:
    """The campaign of the sweep tests: four planted systems, 40 judgements."""
    return planted_campaign(strengths=[60.0, 20.0, -20.0, -60.0], n_judgements=40, seed=11, k=4)


def writes(queries: CaptureQueriesContext) -> list[str]:
    """The statements among ``queries`` that write."""
    return [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().startswith(WRITES)]
