"""Import jobs after faults end within minutes: a job whose process died is handed out
again (nothing of it was written) and imports once; a dropped database connection gives
the job back instead of failing it; a queued job whose message was lost is sent again;
a job lost too often fails with the reason. Real workers:
tests/flows/workers/test_import_jobs_worker_lost.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from annotations.importing import jobs
from annotations.importing.jobs import import_job_create, import_job_run, import_jobs_sweep
from annotations.importing.outputs import Upload
from annotations.models import ImportJob, Output
from common import queries
from tests.annotations.import_jobs import outputs_csv
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _jobs_in_this_thread(settings):
    settings.JOBS_IN_THREAD = False


@pytest.fixture
def sent(monkeypatch) -> list[int]:
    """Jobs handed to Celery, recorded instead of sent."""
    ids: list[int] = []
    monkeypatch.setattr(jobs, "import_job_dispatch", ids.append)
    return ids


def _pending_job() -> ImportJob:
    return import_job_create(
        campaign=CampaignFactory(), uploads=[Upload("a.csv", outputs_csv(3, 4))], queue=False
    )


def _outputs(job: ImportJob) -> int:
    return Output.objects.filter(item__campaign=job.campaign).count()


def _started_then_silent(job: ImportJob, seconds: float) -> None:
    """A worker started the job and died (SIGKILL): running, its heartbeat silent."""
    assert jobs._import_job_claim(job)
    ImportJob.objects.filter(pk=job.pk).update(
        heartbeat_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_job_whose_worker_died_is_handed_out_again_and_imports_once(
    settings, sent, django_capture_on_commit_callbacks
) -> None:
    job = _pending_job()
    _started_then_silent(job, settings.IMPORT_JOB_LOST_AFTER - 10)
    with django_capture_on_commit_callbacks(execute=True):
        assert import_jobs_sweep() == []
    assert sent == []  # still beating: left to its worker
    _started_then_silent_again = ImportJob.objects.filter(pk=job.pk)
    _started_then_silent_again.update(
        heartbeat_at=timezone.now() - timedelta(seconds=settings.IMPORT_JOB_LOST_AFTER + 1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert import_jobs_sweep() == []  # not failed: resumed, within a minute
    assert sent == [job.pk]
    job.refresh_from_db()
    assert job.status == ImportJob.Status.PENDING and job.attempts == 1
    assert bytes(job.data) != b""  # the files are kept for the next attempt
    job = import_job_run(job=job)
    assert job.status == ImportJob.Status.DONE, job.error
    assert job.attempts == 2
    assert _outputs(job) == 12
    assert import_job_run(job=job).status == ImportJob.Status.DONE
    assert _outputs(job) == 12


def test_a_job_lost_too_often_fails_with_the_reason(settings, sent) -> None:
    job = _pending_job()
    for _ in range(settings.IMPORT_JOB_MAX_ATTEMPTS):
        _started_then_silent(job, settings.IMPORT_JOB_LOST_AFTER + 1)
        job.refresh_from_db()
        ended = import_jobs_sweep()
        job.refresh_from_db()
    assert ended == [job.pk]
    assert job.status == ImportJob.Status.FAILED
    assert f"was lost {settings.IMPORT_JOB_MAX_ATTEMPTS} times" in job.error
    assert "upload the files again" in job.error and "/" not in job.error.split("(")[0]
    assert bytes(job.data) == b"" and _outputs(job) == 0


def test_a_dropped_database_connection_gives_the_job_back(monkeypatch) -> None:
    """OperationalError mid-import (pg_terminate_backend, a restarted server) is not the
    job's failure: nothing is written, the job is pending again for the task's retry."""
    job = _pending_job()
    real = jobs.outputs_import_uploads

    def dropped(**kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(jobs, "outputs_import_uploads", dropped)
    with pytest.raises(OperationalError):
        import_job_run(job=job)
    job.refresh_from_db()
    assert job.status == ImportJob.Status.PENDING and job.error == ""
    assert bytes(job.data) != b"" and _outputs(job) == 0
    monkeypatch.setattr(jobs, "outputs_import_uploads", real)
    job = import_job_run(job=job)
    assert job.status == ImportJob.Status.DONE, job.error
    assert _outputs(job) == 12


@pytest.mark.django_db(transaction=True)
def test_an_attempt_handed_out_meanwhile_rolls_its_import_back(monkeypatch) -> None:
    """A process frozen past the lease (not dead) finds the job handed out again when it
    wakes: its import is rolled back, so the files are imported once. (PostgreSQL: the
    sweep writes from a connection of its own.)"""
    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("needs a second connection writing while the import's transaction is open")
    job = _pending_job()
    real = jobs.outputs_import_uploads

    def frozen(**kwargs):
        results = real(**kwargs)
        # Meanwhile the sweep (another connection) gave the job back to the queue.
        sweep = connections.create_connection("default")
        try:
            with sweep.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {ImportJob._meta.db_table} SET status = 'pending' WHERE id = %s",
                    [job.pk],
                )
        finally:
            sweep.close()
        return results

    monkeypatch.setattr(jobs, "outputs_import_uploads", frozen)
    job = import_job_run(job=job)
    assert job.status == ImportJob.Status.PENDING
    assert _outputs(job) == 0
    monkeypatch.setattr(jobs, "outputs_import_uploads", real)
    assert import_job_run(job=job).status == ImportJob.Status.DONE
    assert _outputs(job) == 12


def test_a_queued_job_whose_message_was_lost_is_sent_again(
    settings, sent, django_capture_on_commit_callbacks
) -> None:
    job = _pending_job()
    with django_capture_on_commit_callbacks(execute=True):
        assert import_jobs_sweep() == []
    assert sent == []  # just queued
    ImportJob.objects.filter(pk=job.pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.IMPORT_JOB_QUEUED_AFTER + 1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert import_jobs_sweep() == []
    assert sent == [job.pk]
    with django_capture_on_commit_callbacks(execute=True):
        assert import_jobs_sweep() == []
    assert sent == [job.pk]  # once per IMPORT_JOB_QUEUED_AFTER, not at every sweep


def test_an_error_on_a_connection_terminated_under_it_gives_the_job_back(monkeypatch) -> None:
    """psycopg2 may raise a SystemError (not an OperationalError) when the server
    terminates the connection mid-import: with the connection closed the job is given
    back for the task's retry (an OperationalError), not failed as "unexpected" (a write
    that could not happen) and left running until the sweep."""
    job = _pending_job()

    def terminated(**kwargs):
        raise SystemError("<built-in method execute> returned NULL without setting an error")

    monkeypatch.setattr(jobs, "outputs_import_uploads", terminated)
    monkeypatch.setattr(queries, "connection_lost", lambda: True)
    with pytest.raises(OperationalError, match="connection was lost"):
        import_job_run(job=job)
    job.refresh_from_db()
    assert job.status == ImportJob.Status.PENDING and job.error == ""
    assert bytes(job.data) != b"" and _outputs(job) == 0


def test_an_unexpected_error_on_a_live_connection_still_fails_the_job(monkeypatch) -> None:
    job = _pending_job()

    def broken(**kwargs):
        raise SystemError("a bug")

    monkeypatch.setattr(jobs, "outputs_import_uploads", broken)
    with pytest.raises(SystemError):
        import_job_run(job=job)
    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED and "unexpectedly" in job.error
