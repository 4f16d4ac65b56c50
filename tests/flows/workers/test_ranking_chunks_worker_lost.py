"""A chunked ranking run whose Celery worker dies still finishes, with the same numbers.

Like tests/flows/workers/test_ranking_run_worker_lost.py (the same worker fixtures:
PostgreSQL shared with a worker subprocess on a queue of its own, Redis as the broker):

1. the pool process dies mid-chunk: the chunk stops beating; the sweep (celery beat,
   every minute) hands it out again once it has been silent for
   ``RANKING_LOST_AFTER`` (shortened here) and the run finishes;
2. the whole worker dies: the sweep re-dispatches the lost chunks to another worker and
   the run finishes, identical to the run computed in this process;
3. the database terminates every connection mid-chunk: the chunk is given back, its task
   retries after a backoff and the run finishes, with no sweep and no failure.

Every wait is on a condition (the chunk computing, its heartbeat silent, the run ended),
bounded; none is a fixed sleep.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from ranking.models import RankingChunk, RankingRun
from ranking.services import compute
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from ranking.services.sweep import ranking_runs_sweep
from tests.flows.workers.processes import Worker, _wait
from tests.ranking.planted import planted_campaign

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

RUNS, CHUNK_RUNS = 8000, 2000


def _chunked_run(seed: int = 3) -> RankingRun:
    campaign, criterion = planted_campaign(
        strengths=[60.0, 30.0, 0.0, -30.0, -60.0, -90.0], n_judgements=150, seed=5
    )
    run = ranking_run_create(
        campaign=campaign, criterion=criterion, runs=RUNS, seed=seed, queue=False
    )
    RankingRun.objects.filter(pk=run.pk).update(chunk_runs=CHUNK_RUNS)  # long chunks
    run.refresh_from_db()
    return run


def _values(run: RankingRun) -> dict[str, tuple[float, float, int, int, int]]:
    return {
        r.system.label: (r.value, r.spread, r.rank_lo, r.rank_hi, r.cluster)
        for r in run.results.select_related("system")
    }


def _in_process(run: RankingRun) -> dict[str, tuple[float, float, int, int, int]]:
    here = ranking_run_create(
        campaign=run.campaign, criterion=run.criterion, runs=RUNS, seed=run.seed, queue=False
    )
    RankingRun.objects.filter(pk=here.pk).update(chunk_runs=CHUNK_RUNS)
    here.refresh_from_db()
    ranking_run_compute(run=here, fan_out=False)
    assert here.status == RankingRun.Status.DONE, here.error
    return _values(here)


def _chunk_running(run: RankingRun) -> Callable[[], bool]:
    def check() -> bool:
        return run.chunks.filter(state=RankingChunk.State.RUNNING).exists()

    return check


def _ended(run: RankingRun) -> Callable[[], bool]:
    def check() -> bool:
        run.refresh_from_db()
        return run.status in RankingRun.ENDED

    return check


def _sending_to(url: str, queue: str, monkeypatch) -> Callable[[], None]:
    """The sweep's messages go to ``queue`` on the test's broker (the test's workers
    consume queues of their own); returns the closer."""
    from celery import Celery

    sender = Celery("sender", broker=url, set_as_current=False)  # current_app stays ours
    sender.conf.task_serializer = "json"

    def send(run_id: int, index: int, queue_: str | None = None) -> None:
        sender.send_task("ranking.compute_chunk", args=[run_id, index], queue=queue)

    monkeypatch.setattr(compute, "ranking_chunk_dispatch", send)
    return sender.close


def _silent(run: RankingRun, seconds: float) -> Callable[[], bool]:
    def check() -> bool:
        from django.utils import timezone

        chunk = run.chunks.filter(state=RankingChunk.State.RUNNING).first()
        if chunk is None or chunk.heartbeat_at is None:
            return False
        return (timezone.now() - chunk.heartbeat_at).total_seconds() > seconds

    return check


def _swept_until_ended(run: RankingRun) -> Callable[[], bool]:
    """What celery beat does, faster: sweep, with chunks lost after 2 s of silence."""

    def check() -> bool:
        ranking_runs_sweep(chunk_lost_after=2, chunk_queued_after=30)
        return _ended(run)()

    return check


def test_a_killed_pool_process_s_chunk_is_handed_out_again(broker, worker, monkeypatch):
    run = _chunked_run()
    close = _sending_to(broker, worker.queue, monkeypatch)
    worker.send(broker, run.pk)
    _wait("a chunk to be computing", _chunk_running(run), worker)
    lost = run.chunks.get(state=RankingChunk.State.RUNNING)
    children = worker.pool_children()
    assert len(children) == 1, children
    os.kill(children[0], signal.SIGKILL)  # what the OOM killer does
    _wait("the run to finish", _swept_until_ended(run), worker, timeout=300)
    close()
    assert run.status == RankingRun.Status.DONE, run.error
    lost.refresh_from_db()
    assert lost.state == RankingChunk.State.DONE
    assert lost.attempts == 2, "the chunk was not given back to the queue and run again"
    assert "WorkerLostError" in worker.log.read_text()
    assert _values(run) == _in_process(run)


def test_a_killed_worker_s_chunks_are_re_dispatched_by_the_sweep(
    broker,
    worker,
    tmp_path: Path,
    monkeypatch,
):
    run = _chunked_run(seed=8)
    worker.send(broker, run.pk)
    _wait("a chunk to be computing", _chunk_running(run), worker)
    worker.kill_all()  # the node is lost: nothing gives its messages back
    _wait("the chunk's heartbeat to fall silent", _silent(run, 2.0), worker)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.RUNNING
    second = Worker(broker, tmp_path / "second.log")
    try:
        close = _sending_to(broker, second.queue, monkeypatch)
        assert ranking_runs_sweep(chunk_lost_after=2, chunk_queued_after=2) == []
        close()
        assert run.chunks.filter(dispatches=2).exists()
        _wait("the run to finish", _ended(run), second, timeout=300)
    finally:
        second.stop()
    assert run.status == RankingRun.Status.DONE, run.error
    assert _values(run) == _in_process(run)


def test_terminated_database_connections_mid_chunk_end_in_a_finished_run(
    broker,
    worker,
):
    """pg_terminate_backend on every connection of the worker mid-chunk (a database
    restart, a failover): the chunk is given back and its task retried with a backoff;
    the run finishes with the numbers of an undisturbed run, without a sweep."""
    from django.db import connection

    run = _chunked_run(seed=11)
    worker.send(broker, run.pk)
    _wait("a chunk to be computing", _chunk_running(run), worker)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        (terminated,) = cursor.fetchone()
    assert terminated >= 1
    _wait("the run to finish", _ended(run), worker, timeout=300)
    assert run.status == RankingRun.Status.DONE, run.error
    assert (
        "OperationalError" in worker.log.read_text() or run.chunks.filter(attempts__gte=2).exists()
    )
    assert _values(run) == _in_process(run)
