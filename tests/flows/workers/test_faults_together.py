"""Faults that come together, in the production shape: a Celery worker, celery beat
running the sweeps (every second here) and, after the worker's main process is
SIGKILLed while PostgreSQL terminates every connection at the same moment, a new worker
on the same queue (what supervisord or systemd start within seconds). A chunked ranking
run and an import job each end within a bound: the run with the numbers of an
undisturbed run of the same seed, the job with its files imported once. No sweep is
called by the test: beat sends it, the workers run it; every wait is on a condition.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection

from annotations.importing.jobs import RUN_TASK, import_job_create
from annotations.importing.outputs import Upload
from annotations.models import ImportJob, Output
from ranking.models import RankingChunk, RankingRun
from tests.annotations.import_jobs import outputs_csv
from tests.factories import CampaignFactory
from tests.flows.workers.processes import (
    ROOT,
    Worker,
    _database_url,
    _wait,
)
from tests.flows.workers.test_ranking_chunks_worker_lost import _chunked_run, _in_process, _values

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

#: short leases for this test's worker and beat (production: 120 s, 180 s, 60 s, 60 s)
FAST = {
    "HUMANEVAL_SWEEP_EVERY": "1",
    "HUMANEVAL_RANKING_LOST_AFTER": "3",
    "HUMANEVAL_RANKING_QUEUED_AFTER": "5",
    "HUMANEVAL_IMPORT_JOB_LOST_AFTER": "3",
    "HUMANEVAL_IMPORT_JOB_QUEUED_AFTER": "5",
}
BOUND = 120  # seconds from the faults to the end


class Shape:
    """A worker and celery beat on a queue of their own; a worker can be replaced."""

    def __init__(self, url: str, tmp: Path) -> None:
        self.url, self.tmp = url, tmp
        queue = f"h2-faults-{uuid.uuid4().hex[:8]}"
        # Beat's sweeps and the messages they re-send go to this queue too.
        self.env = {**FAST, "HUMANEVAL_CELERY_QUEUE": queue}
        self.worker = Worker(url, tmp / "worker-1.log", queue=queue, env=self.env)
        self.workers = [self.worker]
        self.beat = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "humaneval",
                "beat",
                f"--schedule={tmp / 'beat-schedule'}",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env={
                **os.environ,
                **self.env,
                "DATABASE_URL": _database_url(),
                "CELERY_BROKER_URL": url,
                "CELERY_TASK_ALWAYS_EAGER": "false",
            },
            stdout=(tmp / "beat.log").open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def send(self, task: str, *args: int) -> None:
        from celery import Celery

        sender = Celery("sender", broker=self.url, set_as_current=False)
        sender.conf.task_serializer = "json"
        sender.send_task(task, args=list(args), queue=self.worker.queue)
        sender.close()

    def faults(self) -> None:
        """SIGKILL the worker's main process and terminate every database connection."""
        os.kill(self.worker.process.pid, signal.SIGKILL)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        self.worker.process.wait(timeout=30)
        n = len(self.workers) + 1
        self.worker = Worker(
            self.url, self.tmp / f"worker-{n}.log", queue=self.worker.queue, env=self.env
        )
        self.workers.append(self.worker)

    def stop(self) -> None:
        for process in [self.beat, *(w.process for w in self.workers)]:
            # The whole group: a killed main process leaves its pool child behind.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


@pytest.fixture
def shape(broker: str, tmp_path: Path) -> Iterator[Shape]:
    started = Shape(broker, tmp_path)
    try:
        yield started
    finally:
        started.stop()


def _ended_within(check: Callable[[], bool], shape: Shape, what: str) -> None:
    _wait(what, check, shape.worker, timeout=BOUND)


def test_a_killed_worker_and_dropped_connections_at_once_end_the_run_the_same(shape):
    run = _chunked_run(seed=13)
    shape.send("ranking.compute_run", run.pk)
    _wait(
        "a chunk to be computing",
        lambda: run.chunks.filter(state=RankingChunk.State.RUNNING).exists(),
        shape.worker,
    )
    shape.faults()

    def ended() -> bool:
        run.refresh_from_db()
        return run.status in RankingRun.ENDED

    _ended_within(ended, shape, "the run to end")
    assert run.status == RankingRun.Status.DONE, run.error
    shape.stop()  # the reference below is computed here, with no sweep handing it out
    assert _values(run) == _in_process(run)


def test_a_killed_worker_and_dropped_connections_at_once_end_the_import_once(shape):
    systems, items = 20, 2500
    job = import_job_create(
        campaign=CampaignFactory(),
        uploads=[Upload("big.csv", outputs_csv(systems, items))],
        queue=False,
    )
    shape.send(RUN_TASK, job.pk)

    def importing() -> bool:
        job.refresh_from_db()
        return job.status == ImportJob.Status.RUNNING and job.rows_done > 0

    _wait("the import to be writing", importing, shape.worker)
    shape.faults()

    def ended() -> bool:
        job.refresh_from_db()
        return job.status in (ImportJob.Status.DONE, ImportJob.Status.FAILED)

    _ended_within(ended, shape, "the job to end")
    assert job.status == ImportJob.Status.DONE, job.error
    assert Output.objects.filter(item__campaign=job.campaign).count() == systems * items
