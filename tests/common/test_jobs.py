"""The one background-jobs mechanism (common.jobs): dispatch modes, the heartbeat thread,
silence, give-back and the wording of durations; and that ranking runs, their chunks,
import jobs and build jobs all go through it."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError
from django.utils import timezone

from annotations.importing.jobs import import_job_create, import_jobs_sweep, job_create
from annotations.importing.outputs import Upload
from annotations.models import ImportJob
from common import jobs
from ranking.models import RankingRun
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from ranking.services.sweep import ranking_runs_sweep
from tests.factories import CampaignFactory
from tests.ranking.planted import planted_campaign

# Durations ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0.5, "0.5 s"),
        (45, "45 s"),
        (60, "1 min"),
        (120, "2 min"),
        (125, "2 min 5 s"),
        (600, "10 min"),
        (3600, "1 h"),
        (5400, "1 h 30 min"),
        (6 * 3600, "6 h"),
    ],
)
def test_one_wording_of_durations(seconds: float, words: str) -> None:
    assert jobs.duration(seconds) == words


# Dispatch -------------------------------------------------------------------------------


class _FakeTask:
    """A Celery task that records how it was called and from which thread."""

    def __init__(self, *, eager: bool) -> None:
        self.app = type("App", (), {"conf": type("Conf", (), {"task_always_eager": eager})})()
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any], int]] = []
        self.done = threading.Event()

    def _record(self, how: str, args: tuple[Any, ...], options: dict[str, Any]) -> None:
        self.calls.append((how, tuple(args), options, threading.get_ident()))
        self.done.set()

    def delay(self, *args: Any) -> None:
        self._record("delay", args, {})

    def apply_async(self, *, args: tuple[Any, ...], **options: Any) -> None:
        self._record("apply_async", args, options)

    def apply(self, *, args: tuple[Any, ...]) -> None:
        self._record("apply", args, {})


@pytest.fixture
def fake_task(monkeypatch):
    def make(*, eager: bool) -> _FakeTask:
        task = _FakeTask(eager=eager)
        monkeypatch.setattr(jobs, "task", lambda name: task)
        return task

    return make


def test_with_a_broker_a_job_is_a_message(fake_task, settings) -> None:
    settings.JOBS_IN_THREAD = True  # ignored with a broker
    task = fake_task(eager=False)
    jobs.dispatch("some.task", 7)
    jobs.dispatch("some.task", 7, 2, queue="other")
    assert [(how, args, options) for how, args, options, _ in task.calls] == [
        ("delay", (7,), {}),
        ("apply_async", (7, 2), {"queue": "other"}),
    ]


def test_without_a_broker_a_job_runs_in_a_daemon_thread_when_the_settings_say_so(
    fake_task, settings
) -> None:
    settings.JOBS_IN_THREAD = True
    task = fake_task(eager=True)
    jobs.dispatch("some.task", 7)
    assert task.done.wait(timeout=30)
    for thread in [t for t in threading.enumerate() if t.name == "some.task-7"]:
        thread.join(timeout=30)
    ((how, args, _, ident),) = task.calls
    assert (how, args) == ("apply", (7,))
    assert ident != threading.get_ident()


@pytest.mark.parametrize(("in_thread", "thread"), [(False, True), (True, False)])
def test_without_a_broker_a_job_runs_here_otherwise(fake_task, settings, in_thread, thread) -> None:
    settings.JOBS_IN_THREAD = in_thread
    task = fake_task(eager=True)
    jobs.dispatch("some.task", 7, thread=thread)
    assert [(how, args, ident) for how, args, _, ident in task.calls] == [
        ("apply", (7,), threading.get_ident())
    ]


# Heartbeat ------------------------------------------------------------------------------


class _Rows:
    """A job's row as the heartbeat sees it: ``update`` records the beat and its thread;
    the first ``failures`` beats meet a dropped connection."""

    db = "default"

    def __init__(self, *, beats: int, failures: int = 0) -> None:
        self.beats: list[tuple[dict[str, Any], int]] = []
        self.failures = failures
        self.enough = threading.Event()
        self.wanted = beats

    def update(self, **changes: Any) -> int:
        if self.failures:
            self.failures -= 1
            raise OperationalError("server closed the connection unexpectedly")
        self.beats.append((changes, threading.get_ident()))
        if len(self.beats) >= self.wanted:
            self.enough.set()
        return 1


def test_the_heartbeat_beats_from_a_thread_of_its_own_until_stopped() -> None:
    rows = _Rows(beats=3)
    with jobs.Heartbeat(rows, every=0.01, enabled=True, name="beats") as heartbeat:  # type: ignore[arg-type]
        assert rows.enough.wait(timeout=30)
    assert heartbeat.thread is not None and not heartbeat.thread.is_alive()
    beaten = len(rows.beats)
    assert beaten >= 3
    assert {ident for _, ident in rows.beats} == {heartbeat.thread.ident}
    assert heartbeat.thread.ident != threading.get_ident()
    assert all(set(changes) == {"heartbeat_at"} for changes, _ in rows.beats)
    heartbeat.stop()
    assert len(rows.beats) == beaten  # stopped: no more beats


def test_the_heartbeat_survives_a_dropped_connection() -> None:
    rows = _Rows(beats=2, failures=2)
    heartbeat = jobs.Heartbeat(rows, every=0.01, enabled=True)  # type: ignore[arg-type]
    try:
        assert rows.enough.wait(timeout=30)
    finally:
        heartbeat.stop()
    assert rows.failures == 0 and len(rows.beats) >= 2


def test_the_heartbeat_beats_on_postgresql_only_by_default() -> None:
    from django.db import connection

    rows = _Rows(beats=1)
    heartbeat = jobs.Heartbeat(rows, every=0.01)  # type: ignore[arg-type]
    heartbeat.stop()
    assert (heartbeat.thread is not None) == (connection.vendor == "postgresql")
    if heartbeat.thread is None:
        assert rows.beats == []


# Silence and give-back --------------------------------------------------------------------


def test_silent_after_the_delay_or_never_beaten() -> None:
    now = timezone.now()
    assert jobs.silent(None, now=now, after=60)
    assert jobs.silent(now - timedelta(seconds=61), now=now, after=60)
    assert not jobs.silent(now - timedelta(seconds=59), now=now, after=60)


@pytest.mark.django_db
def test_silent_since_is_the_same_test_in_a_query() -> None:
    campaign = CampaignFactory()
    now = timezone.now()
    beaten = {}
    for ago in (30, 90, None):
        job = ImportJob.objects.create(campaign=campaign, kind="build", filename=str(ago))
        at = None if ago is None else now - timedelta(seconds=ago)
        ImportJob.objects.filter(pk=job.pk).update(heartbeat_at=at)
        beaten[job.pk] = at
    found = set(
        ImportJob.objects.filter(jobs.silent_since(now=now, after=60)).values_list("pk", flat=True)
    )
    expected = {pk for pk, at in beaten.items() if at is not None}
    assert found == {pk for pk in expected if jobs.silent(beaten[pk], now=now, after=60)}
    assert len(found) == 1


@pytest.mark.django_db
def test_give_back_is_best_effort() -> None:
    rows = _Rows(beats=1, failures=1)
    jobs.give_back(rows, status="pending")  # type: ignore[arg-type]
    assert rows.beats == []
    jobs.give_back(rows, status="pending")  # type: ignore[arg-type]
    assert [changes for changes, _ in rows.beats] == [{"status": "pending"}]


# Both kinds of job through the one mechanism ----------------------------------------------


@pytest.fixture
def dispatched(monkeypatch) -> list[tuple[str, tuple[Any, ...]]]:
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(jobs, "dispatch", lambda name, *args, **options: sent.append((name, args)))
    return sent


@pytest.mark.django_db
def test_ranking_runs_chunks_imports_and_builds_are_dispatched_by_common_jobs(
    dispatched, django_capture_on_commit_callbacks
) -> None:
    campaign, criterion = planted_campaign(strengths=[40.0, 0.0, -40.0], n_judgements=20, seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        run = ranking_run_create(campaign=campaign, criterion=criterion, runs=20)
    assert dispatched == [("ranking.compute_run", (run.pk,))]
    ranking_run_compute(run=run)  # plans the chunks and hands them out
    assert ("ranking.compute_chunk", (run.pk, 0)) in dispatched
    draft = CampaignFactory()
    dispatched.clear()
    with django_capture_on_commit_callbacks(execute=True):
        upload = import_job_create(campaign=draft, uploads=[Upload("a.csv", b"x")])
        build = job_create(campaign=draft, kind="build", title="Build tasks")
    assert dispatched == [
        ("annotations.import_job_run", (upload.pk,)),
        ("annotations.import_job_run", (build.pk,)),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(("seconds", "words"), [(120, "2 min"), (3600, "1 h")])
def test_the_two_sweeps_word_a_duration_alike(seconds: float, words: str) -> None:
    campaign, criterion = planted_campaign(strengths=[40.0, 0.0, -40.0], n_judgements=20, seed=3)
    long_ago = timezone.now() - timedelta(seconds=seconds + 60)
    run = RankingRun.objects.create(
        campaign=campaign,
        criterion=criterion,
        status=RankingRun.Status.RUNNING,
        started_at=long_ago,
        heartbeat_at=long_ago,
        attempts=1,
    )
    job = ImportJob.objects.create(campaign=CampaignFactory(), kind="outputs", filename="a.csv")
    ImportJob.objects.filter(pk=job.pk).update(status="running", started_at=long_ago)
    assert ranking_runs_sweep(stale_after=seconds) == [run.pk]
    assert import_jobs_sweep(stale_after=seconds) == [job.pk]
    run.refresh_from_db()
    job.refresh_from_db()
    assert f"No progress for over {words}:" in run.error
    assert f"Not finished {words} after it started" in job.error


@pytest.mark.django_db
def test_a_build_lost_too_often_says_to_build_again_only() -> None:
    job = ImportJob.objects.create(campaign=CampaignFactory(), kind="build", filename="Build")
    silent = timezone.now() - timedelta(seconds=3600)
    ImportJob.objects.filter(pk=job.pk).update(
        status="running", started_at=silent, heartbeat_at=silent, attempts=99
    )
    assert import_jobs_sweep() == [job.pk]
    job.refresh_from_db()
    assert "lost" in job.error and job.error.endswith("build the tasks again.")
    assert "smaller" not in job.error and "files" not in job.error
