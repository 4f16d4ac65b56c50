"""The embedded beat (common.jobs.beat_start, beat_tick): without a broker the web process
runs CELERY_BEAT_SCHEDULE itself, each entry on its own schedule, in one thread that
never dies; with a broker, or with jobs not in threads, it does nothing."""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from celery import current_app
from django.utils import timezone

from common import jobs
from ranking import stats
from ranking.models import RankingChunk, RankingRun
from ranking.services import compute
from ranking.services.compute import ranking_chunk_compute, ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.ranking.chunked_runs import _reference, _values
from tests.ranking.planted import planted_campaign


class _Task:
    """A Celery task as the beat applies it: records each call; may fail or block."""

    def __init__(self, name: str, calls: list[str], *, fails: bool = False) -> None:
        self.name, self.calls, self.fails = name, calls, fails
        self.release: threading.Event | None = None

    def apply(self, *, args: tuple[Any, ...], kwargs: dict[str, Any], throw: bool) -> None:
        self.calls.append(self.name)
        if self.release is not None:
            self.release.wait(timeout=30)
        if self.fails:
            raise RuntimeError(f"{self.name} failed")


@pytest.fixture
def schedule(monkeypatch, settings):
    """A fresh beat with the schedule {entry: (task name, seconds, fails)} of fake tasks;
    returns the applied task names, in order."""
    calls: list[str] = []
    tasks: dict[str, _Task] = {}
    monkeypatch.setattr(jobs, "_beat_last_run", {})
    monkeypatch.setattr(jobs, "task", lambda name: tasks[name])

    def make(entries: dict[str, tuple[str, float, bool]]) -> list[str]:
        settings.CELERY_BEAT_SCHEDULE = {
            entry: {"task": name, "schedule": seconds}
            for entry, (name, seconds, _) in entries.items()
        }
        for name, _, fails in entries.values():
            tasks[name] = _Task(name, calls, fails=fails)
        make.tasks = tasks  # type: ignore[attr-defined]
        return calls

    return make


# A tick -----------------------------------------------------------------------------------


def test_a_tick_applies_each_due_entry_once_on_its_own_schedule(schedule) -> None:
    calls = schedule({"sweep": ("t.sweep", 60, False), "step": ("t.step", 120.0, False)})
    assert jobs.beat_tick(1000.0) == ["sweep", "step"]  # never run here: due
    assert calls == ["t.sweep", "t.step"]
    assert jobs.beat_tick(1030.0) == []  # neither is due yet
    assert jobs.beat_tick(1060.0) == ["sweep"]
    assert jobs.beat_tick(1120.0) == ["sweep", "step"]
    assert calls == ["t.sweep", "t.step", "t.sweep", "t.sweep", "t.step"]


def test_a_schedule_may_be_a_timedelta(schedule, settings) -> None:
    calls = schedule({"sweep": ("t.sweep", 0, False)})
    settings.CELERY_BEAT_SCHEDULE["sweep"]["schedule"] = timedelta(minutes=2)
    jobs.beat_tick(0.0)
    jobs.beat_tick(119.0)
    jobs.beat_tick(120.0)
    assert calls == ["t.sweep", "t.sweep"]


def test_a_failing_task_is_logged_and_the_others_still_run(schedule, caplog) -> None:
    calls = schedule(
        {"a": ("t.a", 60, False), "boom": ("t.boom", 60, True), "b": ("t.b", 60, False)}
    )
    with caplog.at_level(logging.ERROR, logger="common.jobs"):
        assert jobs.beat_tick(0.0) == ["a", "boom", "b"]
        assert jobs.beat_tick(60.0) == ["a", "boom", "b"]  # and it is tried again
    assert calls == ["t.a", "t.boom", "t.b"] * 2
    assert [r.getMessage() for r in caplog.records] == ["The embedded beat's entry boom failed"] * 2


def test_two_ticks_never_run_at_once(schedule) -> None:
    calls = schedule({"slow": ("t.slow", 0, False)})
    slow = schedule.tasks["t.slow"]
    slow.release = threading.Event()
    first = threading.Thread(target=jobs.beat_tick, args=(0.0,))
    first.start()
    deadline = time.monotonic() + 30
    while not calls and time.monotonic() < deadline:
        time.sleep(0.01)
    assert jobs.beat_tick(100.0) == []  # the first tick is still running
    slow.release.set()
    first.join(timeout=30)
    assert calls == ["t.slow"]
    assert jobs.beat_tick(100.0) == ["slow"]


# The thread -------------------------------------------------------------------------------


def test_the_thread_survives_failing_tasks_and_ticks_and_closes_its_connections(
    schedule, settings, monkeypatch
) -> None:
    settings.SWEEP_EVERY = 0.05
    calls = schedule({"boom": ("t.boom", 0, True), "ok": ("t.ok", 0, False)})
    closed: list[int] = []
    monkeypatch.setattr(jobs.connections, "close_all", lambda: closed.append(1))
    real_tick = jobs.beat_tick
    ticks: list[float] = []

    def tick(now: float) -> list[str]:
        ticks.append(now)
        if len(ticks) == 1:
            raise RuntimeError("the whole tick failed")
        return real_tick(now)

    monkeypatch.setattr(jobs, "beat_tick", tick)
    stopped = threading.Event()
    thread = threading.Thread(target=jobs._beat_run, args=(stopped,), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while calls.count("t.ok") < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    stopped.set()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert calls.count("t.ok") >= 3 and calls.count("t.boom") >= 3
    assert len(closed) == len(ticks)  # after every tick, the failed one too


def test_the_interval_is_sweep_every_or_a_shorter_schedule(schedule, settings) -> None:
    settings.SWEEP_EVERY = 60.0
    schedule({"sweep": ("t.sweep", 60.0, False), "often": ("t.often", 15, False)})
    assert jobs._beat_every() == 15.0
    settings.SWEEP_EVERY = 5.0
    assert jobs._beat_every() == 5.0


@pytest.fixture
def beat_thread(monkeypatch, settings):
    """No beat thread in this process yet; the beat's loop replaced by one that waits to
    be released. Returns the list of loops started and the release event."""
    settings.JOBS_IN_THREAD = True
    settings.EMBEDDED_BEAT = True
    monkeypatch.setattr(jobs, "_beat_thread", None)
    started: list[str] = []
    release = threading.Event()

    def loop(stopped: threading.Event) -> None:
        started.append(threading.current_thread().name)
        release.wait(timeout=30)

    monkeypatch.setattr(jobs, "_beat_run", loop)
    yield started, release
    release.set()
    if jobs._beat_thread is not None:
        jobs._beat_thread.join(timeout=30)


def test_start_is_idempotent_one_thread_per_process(beat_thread) -> None:
    started, release = beat_thread
    assert jobs.beat_start() is True
    first = jobs._beat_thread
    assert jobs.beat_start() is True
    assert jobs._beat_thread is first and first is not None and first.daemon
    deadline = time.monotonic() + 30
    while not started and time.monotonic() < deadline:
        time.sleep(0.01)
    assert started == ["embedded-beat"]
    # A thread that is not alive (a forked child inherits none) is started again.
    release.set()
    first.join(timeout=30)
    release.clear()
    assert jobs.beat_start() is True
    assert jobs._beat_thread is not first


@pytest.mark.parametrize(
    ("eager", "in_thread", "embedded"),
    [(False, True, True), (True, False, True), (True, True, False)],
    ids=["with a broker", "jobs not in threads", "switched off"],
)
def test_start_does_nothing_with_a_broker_or_without_jobs_in_threads(
    beat_thread, settings, eager, in_thread, embedded
) -> None:
    started, _ = beat_thread
    current_app.conf.task_always_eager = eager  # tests/conftest.py's _celery_eager restores it
    settings.JOBS_IN_THREAD = in_thread
    settings.EMBEDDED_BEAT = embedded
    assert jobs.beat_start() is False
    assert jobs._beat_thread is None
    assert started == []


# End to end: the real schedule on SQLite ----------------------------------------------------


@pytest.fixture
def lost_chunk(monkeypatch, settings):
    """A chunked run of three chunks on SQLite: chunks 0 and 2 done; chunk 1 started by a
    worker (thread) that died, its heartbeat older than RANKING_LOST_AFTER."""
    monkeypatch.setattr(stats, "DEFAULT_CHUNK_RUNS", 25)
    monkeypatch.setattr(jobs, "_beat_last_run", {})
    campaign, criterion = planted_campaign(
        strengths=[60.0, 30.0, 0.0, -30.0, -60.0], n_judgements=50, seed=21
    )
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=60, queue=False)
    with monkeypatch.context() as m:
        m.setattr(compute, "ranking_chunk_dispatch", lambda *args, **kwargs: None)
        m.setattr(compute, "ranking_chunks_dispatch", lambda *args, **kwargs: None)
        ranking_run_compute(run=run)  # planned; the chunks' messages are lost
    ranking_chunk_compute(run_id=run.pk, index=0)
    ranking_chunk_compute(run_id=run.pk, index=2)
    assert compute._claim_chunk(run_id=run.pk, index=1) is not None  # then its thread died
    RankingChunk.objects.filter(run=run, index=1).update(
        heartbeat_at=timezone.now() - timedelta(seconds=settings.RANKING_LOST_AFTER + 5)
    )
    return run


@pytest.mark.django_db
def test_one_beat_tick_hands_a_lost_chunk_out_again_and_the_run_finishes(
    lost_chunk, django_capture_on_commit_callbacks, caplog
) -> None:
    run = lost_chunk
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        applied = jobs.beat_tick(time.monotonic())
    assert "ranking-sweep-runs" in applied
    assert not [r for r in caplog.records if r.name == "common.jobs"]
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE, run.error
    assert run.chunks.get(index=1).dispatches == 2
    assert _values(run) == _reference(run)


@pytest.mark.django_db
def test_one_beat_tick_fails_a_run_whose_chunk_was_lost_too_often(lost_chunk, settings) -> None:
    run = lost_chunk
    cap = settings.RANKING_MAX_ATTEMPTS
    RankingChunk.objects.filter(run=run, index=1).update(attempts=cap)
    assert "ranking-sweep-runs" in jobs.beat_tick(time.monotonic())
    run.refresh_from_db()
    assert run.status == RankingRun.Status.FAILED
    assert f"Chunk 2 of this run was lost {cap} times" in run.error
