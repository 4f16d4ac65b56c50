"""A retried chunked run (ranking/services/runs.py) gets fresh chunks and the same numbers."""

from __future__ import annotations

import pytest

from ranking import stats
from ranking.models import RankingRun
from ranking.services import runs as services
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.ranking.chunked_runs import _values

pytestmark = pytest.mark.django_db


RUNS = 60  # three chunks of 25, 25 and 10 runs


@pytest.fixture(autouse=True)
def chunks_of_25(monkeypatch):
    """New runs store chunks of 25 runs here, whatever the default."""
    monkeypatch.setattr(stats, "DEFAULT_CHUNK_RUNS", 25)


def test_a_retried_run_gets_fresh_chunks_and_the_same_numbers(planted, dispatched):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run, fan_out=False)
    first = _values(run)
    RankingRun.objects.filter(pk=run.pk).update(status=RankingRun.Status.FAILED)
    run.refresh_from_db()
    services.ranking_run_retry(run=run)
    ranking_run_compute(run=run, fan_out=False)
    assert run.status == RankingRun.Status.DONE and _values(run) == first
