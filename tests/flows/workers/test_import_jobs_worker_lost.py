"""An import job whose Celery worker dies, or whose database connections are terminated,
ends within minutes, its files imported exactly once.

Real worker processes (the fixtures of tests/flows/workers/conftest.py: PostgreSQL shared
with a worker subprocess on a queue of its own, Redis as the broker). The sweep
is what celery beat runs, called here in a loop with a 2-second lease; every wait is on
a condition, bounded.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from annotations.importing import jobs
from annotations.importing.jobs import import_job_create, import_jobs_sweep
from annotations.importing.outputs import Upload
from annotations.models import ImportJob, Output
from tests.annotations.import_jobs import outputs_csv
from tests.factories import CampaignFactory
from tests.flows.workers.processes import Worker, _wait

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

SYSTEMS, ITEMS = 20, 2500  # 50,000 outputs: an import of several seconds


def _job() -> ImportJob:
    return import_job_create(
        campaign=CampaignFactory(),
        uploads=[Upload("big.csv", outputs_csv(SYSTEMS, ITEMS))],
        queue=False,
    )


def _send(url: str, queue: str, job_id: int) -> None:
    from celery import Celery

    sender = Celery("sender", broker=url, set_as_current=False)  # current_app stays ours
    sender.conf.task_serializer = "json"
    sender.send_task(jobs.RUN_TASK, args=[job_id], queue=queue)
    sender.close()


def _sweep_sends_to(url: str, queue: str, monkeypatch) -> None:
    """The sweep's messages go to ``queue`` (the test's workers consume queues of their own)."""
    monkeypatch.setattr(jobs, "import_job_dispatch", lambda pk: _send(url, queue, pk))


def _importing(job: ImportJob) -> Callable[[], bool]:
    def check() -> bool:
        job.refresh_from_db()
        return job.status == ImportJob.Status.RUNNING and job.rows_done > 0

    return check


def _swept_until_ended(job: ImportJob) -> Callable[[], bool]:
    """What celery beat does, faster: sweep, with jobs lost after 2 s of silence."""

    def check() -> bool:
        import_jobs_sweep(lost_after=2, queued_after=30)
        job.refresh_from_db()
        return job.status in (ImportJob.Status.DONE, ImportJob.Status.FAILED)

    return check


def _imported_once(job: ImportJob) -> None:
    assert job.status == ImportJob.Status.DONE, job.error
    assert job.rows_done == SYSTEMS * ITEMS
    assert Output.objects.filter(item__campaign=job.campaign).count() == SYSTEMS * ITEMS


def test_a_killed_worker_s_import_is_handed_to_another_worker(
    broker,
    worker,
    tmp_path: Path,
    monkeypatch,
):
    job = _job()
    _send(broker, worker.queue, job.pk)
    _wait("the import to be writing", _importing(job), worker)
    worker.kill_all()  # the node is lost: nothing gives its message back before 72 min
    second = Worker(broker, tmp_path / "second.log")
    try:
        _sweep_sends_to(broker, second.queue, monkeypatch)
        _wait("the job to end", _swept_until_ended(job), second, timeout=180)
    finally:
        second.stop()
    _imported_once(job)
    assert job.attempts == 2


def test_a_killed_pool_process_s_import_runs_again(broker, worker, monkeypatch):
    job = _job()
    _sweep_sends_to(broker, worker.queue, monkeypatch)
    _send(broker, worker.queue, job.pk)
    _wait("the import to be writing", _importing(job), worker)
    children = worker.pool_children()
    assert len(children) == 1, children
    os.kill(children[0], signal.SIGKILL)  # what the OOM killer does
    _wait("the job to end", _swept_until_ended(job), worker, timeout=180)
    _imported_once(job)
    assert job.attempts == 2
    assert "WorkerLostError" in worker.log.read_text()


def test_terminated_database_connections_mid_import_end_in_a_finished_job(
    broker,
    worker,
):
    """pg_terminate_backend on every connection of the worker mid-import (a database
    restart, a failover): the import is rolled back, the job given back and the task
    retried with a backoff; it finishes without a sweep."""
    from django.db import connection

    job = _job()
    _send(broker, worker.queue, job.pk)
    _wait("the import to be writing", _importing(job), worker)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        (terminated,) = cursor.fetchone()
    assert terminated >= 1

    def ended() -> bool:
        job.refresh_from_db()
        return job.status in (ImportJob.Status.DONE, ImportJob.Status.FAILED)

    _wait("the job to end", ended, worker, timeout=180)
    _imported_once(job)
    assert job.attempts >= 2
