"""A chunked run fanned out to a real Celery worker (broker, separate processes) gives the
numbers of the same run computed in this process. Runs in CI (``HUMANEVAL_CELERY_WORKER=1``,
set by .ci/run, which starts the worker), like tests/ranking/test_tasks.py."""

import os
import time

import pytest
from django.conf import settings

from ranking import stats
from ranking.models import RankingChunk, RankingRun
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.ranking.planted import planted_campaign

STRENGTHS = [60.0, 30.0, 0.0, -30.0, -60.0]


def _values(run: RankingRun) -> dict[str, tuple[float, float, int, int, int]]:
    return {
        r.system.label: (r.value, r.spread, r.rank_lo, r.rank_hi, r.cluster)
        for r in run.results.select_related("system")
    }


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_chunks_computed_by_a_real_worker_merge_to_the_in_process_result():
    if os.environ.get("HUMANEVAL_CELERY_WORKER") != "1":
        pytest.skip(
            "needs a real Celery worker and broker (run by .ci/run: HUMANEVAL_CELERY_WORKER=1)"
        )
    from humaneval.celery import app

    assert not app.conf.task_always_eager, "this test must not run tasks in-process"
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    campaign, criterion = planted_campaign(strengths=STRENGTHS, n_judgements=40, seed=6)
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=100, seed=3)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.status in RankingRun.ENDED:
            break
        time.sleep(0.25)
    assert run.status == RankingRun.Status.DONE, f"status {run.status}: {run.error}"
    assert run.chunk_runs is not None
    sizes = stats.chunk_sizes(100, run.chunk_runs)
    assert len(sizes) >= 2, "the run must be split to test the fan-out"
    assert list(run.chunks.values_list("runs", flat=True)) == sizes
    assert not run.chunks.exclude(state=RankingChunk.State.DONE).exists()
    assert run.progress == 1.0 and run.runs_done == 100

    here = ranking_run_create(campaign=campaign, criterion=criterion, runs=100, seed=3, queue=False)
    ranking_run_compute(run=here, fan_out=False)
    assert here.status == RankingRun.Status.DONE
    assert _values(run) == _values(here)
