"""Ranking runs always end: the sweep, redelivery, attempts, cancel, retry, delete, caps
and real progress (service level, SQLite or PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from common.errors import DomainError
from ranking.models import RankingRun
from ranking.services import compute
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import (
    ranking_run_cancel,
    ranking_run_create,
    ranking_run_delete,
    ranking_run_retry,
)
from ranking.services.sweep import ranking_runs_sweep
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db

STRENGTHS = [60.0, 20.0, -20.0, -60.0]


@pytest.fixture
def planted():
    return planted_campaign(strengths=STRENGTHS, n_judgements=40, seed=11, k=4)


def _single_stream(run: RankingRun) -> RankingRun:
    """A run as created before chunking: computed as one stream, in one task;
    tests/ranking/services/test_chunks.py covers the chunked runs."""
    RankingRun.objects.filter(pk=run.pk).update(chunk_runs=None)
    run.refresh_from_db()
    return run


def _running(campaign, criterion, *, heartbeat_ago: float, **kwargs) -> RankingRun:
    """A run a worker claimed and then stopped reporting on (as if it died)."""
    beat = timezone.now() - timedelta(seconds=heartbeat_ago)
    return RankingRun.objects.create(
        campaign=campaign,
        criterion=criterion,
        status=RankingRun.Status.RUNNING,
        started_at=beat,
        heartbeat_at=beat,
        attempts=1,
        runs_done=min(10, kwargs.get("runs", 200)),
        progress=0.2,
        **kwargs,
    )


# The sweep --------------------------------------------------------------------------------


def test_sweep_fails_a_run_whose_heartbeat_stopped_and_leaves_live_ones(planted, settings):
    campaign, criterion = planted
    settings.RANKING_STALE_AFTER = 600
    lost = _running(campaign, criterion, heartbeat_ago=601)
    alive = _running(campaign, criterion, heartbeat_ago=30)
    assert ranking_runs_sweep() == [lost.pk]
    lost.refresh_from_db()
    alive.refresh_from_db()
    assert lost.status == RankingRun.Status.FAILED
    assert "No progress for over 10 min" in lost.error
    assert "killed, out of memory" in lost.error and "Retry" in lost.error
    assert lost.finished_at is not None
    assert alive.status == RankingRun.Status.RUNNING and alive.error == ""
    # A second sweep finds nothing more.
    assert ranking_runs_sweep() == []


def test_sweep_fails_a_run_no_worker_picked_up(planted, settings):
    campaign, criterion = planted
    settings.RANKING_PENDING_TIMEOUT = 3600
    queued = RankingRun.objects.create(campaign=campaign, criterion=criterion)
    RankingRun.objects.filter(pk=queued.pk).update(created_at=timezone.now() - timedelta(hours=2))
    fresh = RankingRun.objects.create(campaign=campaign, criterion=criterion)
    assert ranking_runs_sweep() == [queued.pk]
    queued.refresh_from_db()
    assert queued.status == "failed" and "Not started within 1 h" in queued.error
    assert RankingRun.objects.get(pk=fresh.pk).status == "pending"


def test_sweep_command_and_beat_schedule(planted, settings):
    campaign, criterion = planted
    lost = _running(campaign, criterion, heartbeat_ago=120)
    out = StringIO()
    call_command("sweep_ranking_runs", "--stale-after", "60", stdout=out)
    assert f"Failed 1 lost run(s): {lost.pk}." in out.getvalue()
    assert RankingRun.objects.get(pk=lost.pk).status == "failed"
    out = StringIO()
    call_command("sweep_ranking_runs", stdout=out)
    assert "No lost runs." in out.getvalue()
    from humaneval.celery import app

    schedule = app.conf.beat_schedule
    assert any(entry["task"] == "ranking.sweep_runs" for entry in schedule.values())
    import ranking.tasks  # noqa: F401 - registers the tasks

    assert "ranking.sweep_runs" in app.tasks


def test_celery_settings_bound_a_run(settings):
    from ranking.tasks import ranking_run_compute_task

    assert ranking_run_compute_task.acks_late is True
    assert ranking_run_compute_task.reject_on_worker_lost is True
    assert ranking_run_compute_task.soft_time_limit == settings.RANKING_SOFT_TIME_LIMIT
    # Redis must not redeliver a message while its task may still legally run.
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    hard, soft = ranking_run_compute_task.time_limit, ranking_run_compute_task.soft_time_limit
    assert hard is not None and soft is not None and visibility > hard > soft
    # The sweep must not fail a run that is merely between two progress reports.
    assert settings.RANKING_STALE_AFTER >= 60


def test_a_page_view_sweeps_lost_runs_without_beat(planted, client, settings):
    """The embedded set-up has no beat: looking at the run ends it."""
    campaign, criterion = planted
    settings.RANKING_STALE_AFTER = 600
    lost = _running(campaign, criterion, heartbeat_ago=3600)
    owner = User.objects.create_user("owner")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    client.force_login(owner)
    html = client.get(f"/rankings/{lost.pk}/").content.decode()
    assert "No progress for over 10 min" in html
    assert RankingRun.objects.get(pk=lost.pk).status == "failed"


# Redelivery and attempts ---------------------------------------------------------------------


def test_redelivered_task_of_a_lost_run_computes_it_again(planted):
    """reject_on_worker_lost puts the message back; the next worker starts over."""
    campaign, criterion = planted
    run = _running(campaign, criterion, heartbeat_ago=5, runs=30, seed=2)
    ranking_run_compute(run=run)
    assert run.status == RankingRun.Status.DONE and run.attempts == 2
    assert run.runs_done == 30 and run.results.count() == len(STRENGTHS)


def test_a_run_lost_too_often_fails_instead_of_looping(planted, settings):
    campaign, criterion = planted
    run = _running(campaign, criterion, heartbeat_ago=5, runs=30)
    RankingRun.objects.filter(pk=run.pk).update(attempts=settings.RANKING_MAX_ATTEMPTS)
    ranking_run_compute(run=run)
    assert run.status == RankingRun.Status.FAILED
    assert f"lost {settings.RANKING_MAX_ATTEMPTS} times" in run.error
    assert not run.results.exists()


def test_a_message_for_an_ended_run_computes_nothing(planted):
    """The sweep failed it; a later redelivery must not resurrect it."""
    campaign, criterion = planted
    run = _running(campaign, criterion, heartbeat_ago=5000)
    ranking_runs_sweep()
    ranking_run_compute(run=run)
    assert run.status == RankingRun.Status.FAILED and run.attempts == 1
    assert not run.results.exists()


def test_a_sweep_during_the_computation_stops_it(planted, monkeypatch):
    """The sweep failed the run (e.g. a long pause); the computation must not then store a
    result over the failure."""
    campaign, criterion = planted
    run = _single_stream(
        ranking_run_create(campaign=campaign, criterion=criterion, runs=3000, queue=False)
    )
    real = compute._progress_writer

    def writer(run_, attempt):
        report = real(run_, attempt)

        def swept_then_report(fraction: float) -> None:
            RankingRun.objects.filter(pk=run_.pk).update(
                heartbeat_at=timezone.now() - timedelta(days=1)
            )
            ranking_runs_sweep()
            report(fraction)

        return swept_then_report

    monkeypatch.setattr(compute, "_progress_writer", writer)
    ranking_run_compute(run=run)
    assert run.status == RankingRun.Status.FAILED and "No progress" in run.error
    assert not run.results.exists()


# Cancel, retry, delete -----------------------------------------------------------------------


def test_cancel_stops_the_running_computation_at_its_next_progress_report(planted, monkeypatch):
    campaign, criterion = planted
    run = _single_stream(
        ranking_run_create(campaign=campaign, criterion=criterion, runs=3000, queue=False)
    )
    real = compute._progress_writer
    reports = []

    def writer(run_, attempt):
        report = real(run_, attempt)

        def cancel_then_report(fraction: float) -> None:
            reports.append(fraction)
            if len(reports) == 1:  # a designer presses Cancel while it computes
                ranking_run_cancel(run=RankingRun.objects.get(pk=run_.pk))
            report(fraction)

        return cancel_then_report

    monkeypatch.setattr(compute, "_progress_writer", writer)
    ranking_run_compute(run=run)
    assert len(reports) == 1, "the computation went on after the cancellation"
    assert run.status == RankingRun.Status.CANCELLED
    assert run.runs_done < run.runs and not run.results.exists()


def test_cancel_a_queued_run_then_its_message_computes_nothing(planted):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=20, queue=False)
    ranking_run_cancel(run=run)
    ranking_run_compute(run=run)
    assert run.status == RankingRun.Status.CANCELLED and run.attempts == 0


def test_only_active_runs_can_be_cancelled_and_only_ended_runs_deleted(planted):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=20, queue=False)
    with pytest.raises(DomainError, match="cancel it before deleting it"):
        ranking_run_delete(run=run)
    ranking_run_compute(run=run)
    with pytest.raises(DomainError, match="only a queued or running run can be cancelled"):
        ranking_run_cancel(run=run)
    assert run.results.count() == len(STRENGTHS)
    ranking_run_delete(run=run)
    assert not RankingRun.objects.filter(pk=run.pk).exists()


def test_a_failed_run_can_be_retried_and_then_finishes(planted, django_capture_on_commit_callbacks):
    campaign, criterion = planted
    lost = _running(campaign, criterion, heartbeat_ago=5000, runs=25, seed=4)
    ranking_runs_sweep()
    lost.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        ranking_run_retry(run=lost)
    lost.refresh_from_db()
    assert lost.status == RankingRun.Status.DONE and lost.error == ""
    assert lost.runs_done == 25 and lost.attempts == 1
    with pytest.raises(DomainError, match="only a failed or cancelled run can be retried"):
        ranking_run_retry(run=lost)


# Bounded inputs ------------------------------------------------------------------------------


def test_runs_are_capped_like_the_web_form(planted, settings):
    campaign, criterion = planted
    with pytest.raises(DomainError, match=r"at most 100,000 runs per ranking \(asked: 100,001\)"):
        ranking_run_create(campaign=campaign, criterion=criterion, runs=100_001, queue=False)
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=100_000, queue=False)
    assert run.runs == 100_000


def test_memory_budget_refuses_runs_times_systems_beyond_it(planted, settings):
    campaign, criterion = planted
    settings.RANKING_MAX_RUN_VALUES = 40_000  # 4 systems: at most 10,000 runs
    with pytest.raises(DomainError, match="ask for at most 10,000 runs"):
        ranking_run_create(campaign=campaign, criterion=criterion, runs=10_001, queue=False)
    ranking_run_create(campaign=campaign, criterion=criterion, runs=10_000, queue=False)


def test_one_designer_cannot_queue_unbounded_runs(planted, settings):
    campaign, criterion = planted
    settings.RANKING_MAX_ACTIVE_RUNS_PER_USER = 2
    designer = User.objects.create_user("busy")
    other = User.objects.create_user("other")
    first = ranking_run_create(campaign=campaign, criterion=criterion, user=designer, queue=False)
    ranking_run_create(campaign=campaign, criterion=criterion, user=designer, queue=False)
    with pytest.raises(DomainError, match=r"already have 2 ranking run\(s\) queued or running"):
        ranking_run_create(campaign=campaign, criterion=criterion, user=designer, queue=False)
    # Others are not affected, and a finished run frees a place.
    ranking_run_create(campaign=campaign, criterion=criterion, user=other, queue=False)
    ranking_run_compute(run=first)
    ranking_run_create(campaign=campaign, criterion=criterion, user=designer, queue=False)


# Progress --------------------------------------------------------------------------------------


def test_progress_is_runs_done_of_runs_asked_while_it_computes(planted, monkeypatch, settings):
    """What another request reads mid-run: runs done rise from 0 to the runs asked."""
    settings.RANKING_BATCH_RUNS = 1000
    campaign, criterion = planted
    run = _single_stream(
        ranking_run_create(campaign=campaign, criterion=criterion, runs=2500, queue=False)
    )
    real = compute._progress_writer
    seen: list[tuple[int, float, str]] = []

    def writer(run_, attempt):
        report = real(run_, attempt)

        def report_and_read(fraction: float) -> None:
            report(fraction)
            row = RankingRun.objects.values_list("runs_done", "progress", "status").get(pk=run_.pk)
            seen.append(row)

        return report_and_read

    monkeypatch.setattr(compute, "_progress_writer", writer)
    ranking_run_compute(run=run)
    done = [runs_done for runs_done, _, _ in seen]
    assert all(status == "running" for _, _, status in seen)
    assert done == sorted(done) and len(set(done)) >= 3, done
    assert 0 < done[0] < 2500 and done[-1] == 2500
    # Batches of 1,000 runs: the first two batches end at 1,000 and 2,000 runs.
    assert 1000 in done and 2000 in done
    assert run.runs_done == 2500 and run.progress == 1.0


def test_a_dropped_database_connection_is_not_a_single_stream_run_s_failure(planted, monkeypatch):
    """OperationalError while a run created before chunking computes (pg_terminate_backend,
    a database restart): the run is not failed "The computation failed (OperationalError
    ...)" for good; the error reaches the task, which retries with a backoff, and the
    next attempt takes the run over and finishes it."""
    from django.db import OperationalError

    from ranking import stats
    from ranking.tasks import ranking_run_compute_task

    campaign, criterion = planted
    run = _single_stream(
        ranking_run_create(campaign=campaign, criterion=criterion, runs=30, queue=False)
    )
    real = stats.compute

    def dropped(**kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(stats, "compute", dropped)
    with pytest.raises(OperationalError):
        ranking_run_compute(run=run)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.RUNNING and run.error == ""
    assert OperationalError in getattr(ranking_run_compute_task, "autoretry_for", ())
    monkeypatch.setattr(stats, "compute", real)
    ranking_run_compute(run=run)
    assert run.status == RankingRun.Status.DONE, run.error
    assert run.attempts == 2 and run.results.count() == len(STRENGTHS)
