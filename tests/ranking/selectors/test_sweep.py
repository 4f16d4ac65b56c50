"""A run as the sweep will leave it (ranking/selectors/sweep.py): what a page shows of a
run whose worker was lost is what the sweep then stores, read without writing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ranking.models import RankingChunk, RankingRun
from ranking.selectors.sweep import ranking_runs_as_swept
from ranking.services import compute
from ranking.services.runs import ranking_run_create
from ranking.services.sweep import ranking_runs_sweep
from tests.ranking.running_runs import _running

pytestmark = pytest.mark.django_db

Status = RankingRun.Status


def _chunked_with_a_claimed_chunk(campaign, criterion) -> RankingRun:
    """A chunked run whose chunk 2 a worker started."""
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=60, queue=False)
    compute.ranking_run_compute(run=run)
    assert compute._claim_chunk(run_id=run.pk, index=1) is not None
    return run


def _lose_chunk(run: RankingRun, *, attempts: int) -> None:
    """Chunk 2 was started ``attempts`` times, its worker lost an hour ago."""
    RankingChunk.objects.filter(run=run, index=1).update(
        attempts=attempts, heartbeat_at=timezone.now() - timedelta(hours=1)
    )


def _statuses(runs) -> dict[int, tuple[str, str]]:
    return {run.pk: (run.status, run.error) for run in runs}


def test_a_page_shows_each_run_as_the_sweep_then_stores_it(planted, dispatched, settings):
    campaign, criterion = planted
    settings.RANKING_STALE_AFTER = 600
    cap = settings.RANKING_MAX_ATTEMPTS
    # Made first: creating a run sweeps the campaign's runs.
    chunk_at_cap = _chunked_with_a_claimed_chunk(campaign, criterion)
    chunk_to_resend = _chunked_with_a_claimed_chunk(campaign, criterion)
    _lose_chunk(chunk_at_cap, attempts=cap)
    _lose_chunk(chunk_to_resend, attempts=1)
    silent = _running(campaign, criterion, heartbeat_ago=3600)
    beating = _running(campaign, criterion, heartbeat_ago=5)
    unstarted = RankingRun.objects.create(campaign=campaign, criterion=criterion)
    RankingRun.objects.filter(pk=unstarted.pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.RANKING_PENDING_TIMEOUT + 60)
    )
    queued = RankingRun.objects.create(campaign=campaign, criterion=criterion)
    done = RankingRun.objects.create(campaign=campaign, criterion=criterion, status=Status.DONE)
    before = _statuses(RankingRun.objects.all())

    shown = _statuses(ranking_runs_as_swept(runs=list(RankingRun.objects.all())))

    assert _statuses(RankingRun.objects.all()) == before  # read only
    assert {pk for pk, (status, _) in shown.items() if status == Status.FAILED} == {
        chunk_at_cap.pk,
        silent.pk,
        unstarted.pk,
    }
    assert f"Chunk 2 of this run was lost {cap} times" in shown[chunk_at_cap.pk][1]
    assert "No progress for over 10 min" in shown[silent.pk][1]
    assert "Not started within 6 h" in shown[unstarted.pk][1]
    for alive in (chunk_to_resend, beating, queued, done):
        assert shown[alive.pk] == before[alive.pk]
    assert ranking_runs_sweep() == [chunk_at_cap.pk, silent.pk, unstarted.pk]
    assert _statuses(RankingRun.objects.all()) == shown


def test_ended_runs_cost_no_query_and_active_ones_at_most_two(
    planted, dispatched, django_assert_num_queries
):
    campaign, criterion = planted
    done = RankingRun.objects.create(campaign=campaign, criterion=criterion, status=Status.DONE)
    with django_assert_num_queries(0):
        assert ranking_runs_as_swept(runs=[done]) == [done]
    chunked = _chunked_with_a_claimed_chunk(campaign, criterion)
    _lose_chunk(chunked, attempts=1)
    pending = RankingRun.objects.create(campaign=campaign, criterion=criterion)
    with django_assert_num_queries(2):  # the chunks, then the runs
        ranking_runs_as_swept(runs=[done, chunked, pending])
    with django_assert_num_queries(1):
        ranking_runs_as_swept(runs=[pending])
