"""A run suggests no more runs than its campaign may ask for."""

from __future__ import annotations

import pytest

from ranking.models import RankingRun
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.ranking.planted import planted_campaign


@pytest.mark.django_db
def test_a_run_suggests_no_more_runs_than_its_campaign_may_ask_for(settings):
    settings.RANKING_MAX_RUN_VALUES = 3 * 250  # three systems: at most 250 runs
    campaign, criterion = planted_campaign(strengths=[20, 0, -20], n_judgements=60, k=3)
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, queue=False, runs=200)
    )
    assert run.status == RankingRun.Status.DONE, run.error
    assert run.stability["max_runs"] == 250
    suggested = run.stability["suggested_runs"]
    assert suggested is None or suggested <= 250
