"""Lost chunks of a chunked run are re-dispatched or failed by the sweep (ranking/services/sweep.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ranking import stats
from ranking.models import RankingChunk, RankingRun
from ranking.services import compute
from ranking.services.compute import ranking_chunk_compute, ranking_run_compute
from ranking.services.runs import ranking_run_create
from ranking.services.sweep import ranking_runs_sweep
from tests.ranking.chunked_runs import _reference, _values

pytestmark = pytest.mark.django_db


RUNS = 60  # three chunks of 25, 25 and 10 runs


@pytest.fixture(autouse=True)
def chunks_of_25(monkeypatch):
    """New runs store chunks of 25 runs here, whatever the default."""
    monkeypatch.setattr(stats, "DEFAULT_CHUNK_RUNS", 25)


def test_a_lost_chunk_is_re_dispatched_by_the_sweep_then_completes(
    planted, dispatched, django_capture_on_commit_callbacks
):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    ranking_chunk_compute(run_id=run.pk, index=0)
    ranking_chunk_compute(run_id=run.pk, index=2)
    # Chunk 1's worker started it and died (SIGKILL): running, heartbeat stopped.
    assert compute._claim_chunk(run_id=run.pk, index=1) is not None
    old = timezone.now() - timedelta(hours=1)
    RankingChunk.objects.filter(run=run, index=1).update(heartbeat_at=old)
    RankingRun.objects.filter(pk=run.pk).update(heartbeat_at=old)
    dispatched.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking_runs_sweep() == []  # nothing failed...
    assert dispatched == [(run.pk, 1)]  # ...chunk 1 handed to Celery again
    chunk = run.chunks.get(index=1)
    assert chunk.state == RankingChunk.State.PENDING and chunk.dispatches == 2
    run.refresh_from_db()
    assert run.status == RankingRun.Status.RUNNING
    dispatched.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking_runs_sweep() == []
    assert dispatched == []  # fresh heartbeat: left alone
    assert ranking_chunk_compute(run_id=run.pk, index=1) == "merged"
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE
    assert _values(run) == _reference(run)


def test_a_chunk_lost_too_often_fails_the_run_with_the_reason(planted, dispatched, settings):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    old = timezone.now() - timedelta(hours=1)
    for _ in range(settings.RANKING_MAX_ATTEMPTS - 1):
        assert compute._claim_chunk(run_id=run.pk, index=1) is not None  # then killed
        RankingChunk.objects.filter(run=run, index=1).update(heartbeat_at=old)
        assert ranking_runs_sweep() == []
    assert compute._claim_chunk(run_id=run.pk, index=1) is not None
    RankingChunk.objects.filter(run=run, index=1).update(heartbeat_at=old)
    assert ranking_runs_sweep() == [run.pk]
    run.refresh_from_db()
    assert run.status == RankingRun.Status.FAILED
    assert f"Chunk 2 of this run was lost {settings.RANKING_MAX_ATTEMPTS} times" in run.error


def test_a_queued_chunk_is_sent_again_within_minutes_and_later_each_time(
    planted, dispatched, django_capture_on_commit_callbacks, settings
):
    """A chunk whose message a dead worker held (the broker gives it back only after its
    visibility timeout, 72 minutes) is sent again after RANKING_QUEUED_AFTER, not
    after the 6-hour pending timeout; each further copy waits longer, so a long queue
    does not fill with copies, and copies never count as lost workers."""
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    after = settings.RANKING_QUEUED_AFTER
    assert after <= 300
    sent = timezone.now() - timedelta(seconds=after + 5)
    RankingChunk.objects.filter(run=run).update(heartbeat_at=sent)
    dispatched.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking_runs_sweep() == []
    assert sorted(dispatched) == [(run.pk, 0), (run.pk, 1), (run.pk, 2)]
    assert set(run.chunks.values_list("dispatches", flat=True)) == {2}
    # The second copy waits twice as long.
    RankingChunk.objects.filter(run=run).update(
        heartbeat_at=timezone.now() - timedelta(seconds=after + 5)
    )
    dispatched.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking_runs_sweep() == []
    assert dispatched == []
    RankingChunk.objects.filter(run=run).update(
        heartbeat_at=timezone.now() - timedelta(seconds=2 * after + 5)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking_runs_sweep() == []
    assert len(dispatched) == 3
    # Copies are not lost workers: the chunks still compute and the run finishes.
    for index in range(3):
        ranking_chunk_compute(run_id=run.pk, index=index)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE, run.error
    assert _values(run) == _reference(run)


def test_a_silent_running_chunk_is_handed_out_within_minutes(
    planted, dispatched, django_capture_on_commit_callbacks, settings
):
    """Its worker was SIGKILLed: the chunk's heartbeat stops, and after
    RANKING_LOST_AFTER (two minutes, not the ten of a run's stale timeout) the
    sweep gives it back and sends it again."""
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run)
    assert compute._claim_chunk(run_id=run.pk, index=1) is not None  # then killed
    lost = settings.RANKING_LOST_AFTER
    assert lost <= 180 < settings.RANKING_STALE_AFTER
    RankingChunk.objects.filter(run=run, index=1).update(
        heartbeat_at=timezone.now() - timedelta(seconds=lost + 5)
    )
    dispatched.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking_runs_sweep() == []
    assert (run.pk, 1) in dispatched
    assert run.chunks.get(index=1).state == RankingChunk.State.PENDING
    for index in range(3):
        ranking_chunk_compute(run_id=run.pk, index=index)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE, run.error
    assert _values(run) == _reference(run)


def test_a_pending_run_whose_message_was_lost_is_sent_again(
    planted, monkeypatch, django_capture_on_commit_callbacks, settings
):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    sent: list[int] = []
    monkeypatch.setattr(compute, "ranking_run_dispatch", sent.append)
    RankingRun.objects.filter(pk=run.pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.RANKING_QUEUED_AFTER + 5)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking_runs_sweep() == []
    assert sent == [run.pk]
    with django_capture_on_commit_callbacks(execute=True):
        assert ranking_runs_sweep() == []
    assert sent == [run.pk]  # not again until another delay has passed
