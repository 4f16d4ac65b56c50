"""A ranking run whose Celery worker dies still ends.

These tests start their own Celery worker process (Redis broker, PostgreSQL shared with
this test process), SIGKILL it in the middle of a run and watch what happens:

1. only the pool process dies (the kernel's OOM killer picks the biggest process): the
   task, acknowledged late and rejected on worker loss, goes back to the queue, the
   worker's next pool process takes it and the run finishes (attempt 2);
2. the whole worker dies (node lost): nothing redelivers the message before the broker's
   visibility timeout, the run's heartbeat stops, and the sweep fails it with a reason;
   it can then be retried.

They need PostgreSQL (a SQLite test database lives in this process's memory) and Redis:
run with ``DATABASE_URL=postgres://...``; the broker is ``HUMANEVAL_TEST_REDIS_URL``,
else ``CELERY_BROKER_URL`` when it is Redis, else ``redis://127.0.0.1:6379/2``. The
worker consumes a queue of its own, so a CI worker on the same broker never sees it.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

import pytest

from ranking.models import RankingRun
from ranking.services.runs import ranking_run_create
from ranking.services.sweep import ranking_runs_sweep
from tests.flows.workers.processes import _wait
from tests.ranking.planted import planted_campaign

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def _long_run() -> RankingRun:
    """A run that computes for several seconds, reporting progress as it goes."""
    campaign, criterion = planted_campaign(
        strengths=[60.0, 30.0, 0.0, -30.0, -60.0, -90.0], n_judgements=150, seed=5
    )
    run = ranking_run_create(
        campaign=campaign, criterion=criterion, runs=20_000, seed=3, queue=False
    )
    # One stream in one task, as runs created before chunking compute;
    # chunked runs: tests/flows/workers/test_ranking_chunks_worker_lost.py.
    RankingRun.objects.filter(pk=run.pk).update(chunk_runs=None)
    run.refresh_from_db()
    return run


def _mid_run(run: RankingRun) -> Callable[[], bool]:
    def check() -> bool:
        run.refresh_from_db()
        return run.status == RankingRun.Status.RUNNING and 0 < run.runs_done < run.runs

    return check


def test_a_killed_pool_process_gives_the_run_back_to_the_queue(broker, worker):
    run = _long_run()
    worker.send(broker, run.pk)
    _wait("the run to be mid-way", _mid_run(run), worker)
    children = worker.pool_children()
    assert len(children) == 1, children
    os.kill(children[0], signal.SIGKILL)  # what the OOM killer does

    def finished() -> bool:
        run.refresh_from_db()
        return run.status in RankingRun.ENDED

    _wait("the redelivered run to finish", finished, worker, timeout=300)
    assert run.status == RankingRun.Status.DONE, run.error
    assert run.attempts == 2, "the task was not given back to the queue and run again"
    assert run.runs_done == run.runs and run.results.count() == 6
    assert "WorkerLostError" in worker.log.read_text()


def test_a_killed_worker_leaves_a_run_the_sweep_ends(broker, worker):
    run = _long_run()
    worker.send(broker, run.pk)
    _wait("the run to be mid-way", _mid_run(run), worker)
    worker.kill_all()  # the node is lost: no process is left to give the task back
    run.refresh_from_db()
    runs_done = run.runs_done
    assert run.status == RankingRun.Status.RUNNING  # what stayed "running" forever

    def silent_for_2s() -> bool:
        from django.utils import timezone

        run.refresh_from_db()
        assert run.heartbeat_at is not None
        return (timezone.now() - run.heartbeat_at).total_seconds() > 2.0

    _wait("the run's heartbeat to fall silent", silent_for_2s, worker)
    assert run.runs_done == runs_done, "the computation went on after the kill"
    assert ranking_runs_sweep(stale_after=2) == [run.pk]
    run.refresh_from_db()
    assert run.status == RankingRun.Status.FAILED
    assert "No progress for over 2 s" in run.error and "Retry" in run.error
