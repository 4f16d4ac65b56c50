"""A chunked ranking run whose Celery worker dies still finishes, with the same numbers.

Like tests/ranking/test_worker_lost.py (whose worker fixtures these reuse: PostgreSQL shared
with a worker subprocess on a queue of its own, Redis as the broker):

1. the pool process dies mid-chunk: the chunk's message (acknowledged late, rejected on
   worker loss) goes back to the queue and the run finishes;
2. the whole worker dies: the sweep re-dispatches the lost chunks to another worker and
   the run finishes, identical to the run computed in this process.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from ranking import services
from ranking.models import RankingChunk, RankingRun
from ranking.services import ranking_run_compute, ranking_run_create, ranking_runs_sweep
from tests.ranking.planted import planted_campaign
from tests.ranking.test_worker_lost import Worker, _wait, broker, worker  # noqa: F401

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


def test_a_killed_pool_process_gives_the_chunk_back_to_the_queue(broker, worker):  # noqa: F811
    run = _chunked_run()
    worker.send(broker, run.pk)
    _wait("a chunk to be computing", _chunk_running(run), worker)
    time.sleep(0.3)
    lost = run.chunks.get(state=RankingChunk.State.RUNNING)
    children = worker.pool_children()
    assert len(children) == 1, children
    os.kill(children[0], signal.SIGKILL)  # what the OOM killer does
    _wait("the run to finish", _ended(run), worker, timeout=300)
    assert run.status == RankingRun.Status.DONE, run.error
    lost.refresh_from_db()
    assert lost.state == RankingChunk.State.DONE
    assert lost.attempts == 2, "the chunk was not given back to the queue and run again"
    assert "WorkerLostError" in worker.log.read_text()
    assert _values(run) == _in_process(run)


def test_a_killed_worker_s_chunks_are_re_dispatched_by_the_sweep(
    broker,  # noqa: F811
    worker,  # noqa: F811
    tmp_path: Path,
    monkeypatch,
):
    run = _chunked_run(seed=8)
    worker.send(broker, run.pk)
    _wait("a chunk to be computing", _chunk_running(run), worker)
    worker.kill_all()  # the node is lost: nothing gives its messages back
    time.sleep(2.5)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.RUNNING
    second = Worker(broker, tmp_path / "second.log")
    try:
        # The sweep's messages go to the second worker's queue on the test's broker (the
        # test's workers consume queues of their own).
        from celery import Celery

        sender = Celery("sender", broker=broker, set_as_current=False)  # current_app stays ours
        sender.conf.task_serializer = "json"

        def send(run_id: int, index: int, queue: str | None = None) -> None:
            sender.send_task("ranking.compute_chunk", args=[run_id, index], queue=second.queue)

        monkeypatch.setattr(services, "_dispatch_chunk", send)
        assert ranking_runs_sweep(stale_after=2, pending_timeout=2) == []
        sender.close()
        assert run.chunks.filter(dispatches=2).exists()
        _wait("the run to finish", _ended(run), second, timeout=300)
    finally:
        second.stop()
    assert run.status == RankingRun.Status.DONE, run.error
    assert _values(run) == _in_process(run)
