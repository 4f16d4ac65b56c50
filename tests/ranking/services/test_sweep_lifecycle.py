"""The sweep (ranking/services/sweep.py) fails runs whose worker was lost."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ranking.models import RankingRun
from ranking.services.sweep import ranking_runs_sweep
from tests.ranking.planted import planted_campaign
from tests.ranking.running_runs import _running

pytestmark = pytest.mark.django_db


STRENGTHS = [60.0, 20.0, -20.0, -60.0]


@pytest.fixture
def planted():
    return planted_campaign(strengths=STRENGTHS, n_judgements=40, seed=11, k=4)


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
