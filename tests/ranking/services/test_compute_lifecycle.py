"""The computation of a run (ranking/services/compute.py) through redelivery, sweeps,
cancel and dropped connections."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from common.errors import DomainError
from ranking.models import RankingRun
from ranking.services import compute
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import (
    ranking_run_cancel,
    ranking_run_create,
)
from ranking.services.sweep import ranking_runs_sweep
from tests.ranking.planted import planted_campaign
from tests.ranking.running_runs import _running

pytestmark = pytest.mark.django_db


STRENGTHS = [60.0, 20.0, -20.0, -60.0]


@pytest.fixture
def planted():
    return planted_campaign(strengths=STRENGTHS, n_judgements=40, seed=11, k=4)


def _single_stream(run: RankingRun) -> RankingRun:
    """A run as created before chunking: computed as one stream, in one task;
    tests/ranking/services/test_compute_chunks.py covers the chunked runs."""
    RankingRun.objects.filter(pk=run.pk).update(chunk_runs=None)
    run.refresh_from_db()
    return run


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


@pytest.mark.parametrize("chunked", [True, False])
def test_a_ranking_with_values_that_are_not_finite_fails_the_run_and_stores_nothing(
    planted, monkeypatch, chunked
):
    """Defence behind the parameters' ranges: should a computation still give an
    infinite or NaN value, the run fails saying so (it stored ``inf``, which the result's
    JSON could not carry: a 500, and NaN an IntegrityError named to the user)."""
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=20, queue=False)
    if not chunked:
        run = _single_stream(run)
    real = compute._store_result

    def poisoned(run, data, inputs, result, **kwargs):
        result.result.value[0] = float("inf")
        return real(run, data, inputs, result, **kwargs)

    monkeypatch.setattr(compute, "_store_result", poisoned)
    with pytest.raises(DomainError, match="not finite numbers"):  # recorded, then re-raised
        ranking_run_compute(run=run)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.FAILED
    assert run.error.startswith("The computation gave values that are not finite numbers")
    assert "defaults" in run.error and "Error" not in run.error
    assert not run.results.exists()
