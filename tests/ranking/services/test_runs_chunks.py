"""A retried chunked run (ranking/services/runs.py) gets fresh chunks and the same numbers."""

from __future__ import annotations

import pytest

from ranking import stats
from ranking.models import RankingRun
from ranking.selectors import runs as selectors
from ranking.services import runs as services
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.ranking.chunked_runs import _values

pytestmark = pytest.mark.django_db


RUNS = 60  # three chunks of 25, 25 and 10 runs


@pytest.fixture(autouse=True)
def chunks_of_25(monkeypatch):
    """New runs store chunks of 25 runs here, whatever the default."""
    monkeypatch.setattr(stats, "DEFAULT_CHUNK_RUNS", 25)


def test_a_retried_run_gets_fresh_chunks_and_the_same_numbers(planted, dispatched):
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)
    ranking_run_compute(run=run, fan_out=False)
    first = _values(run)
    RankingRun.objects.filter(pk=run.pk).update(status=RankingRun.Status.FAILED)
    run.refresh_from_db()
    services.ranking_run_retry(run=run)
    ranking_run_compute(run=run, fan_out=False)
    assert run.status == RankingRun.Status.DONE and _values(run) == first


def test_a_new_run_stores_chunks_sized_by_its_cost(planted, monkeypatch):
    """The chunk size is worked out from the comparisons at creation and stored: a run
    of many cheap runs gets larger chunks, a run of few keeps the default."""
    campaign, criterion = planted
    estimate = selectors.ranking_comparisons_estimate(criterion=criterion)
    # 50 judgements of 5 scores: 10 comparisons each
    assert estimate == 500
    few = ranking_run_create(campaign=campaign, criterion=criterion, runs=60, queue=False)
    assert few.chunk_runs == 25
    many = ranking_run_create(campaign=campaign, criterion=criterion, runs=20_000, queue=False)
    assert many.chunk_runs == stats.chunk_runs_for("wmt14", 20_000, 500, unit=25)
    assert many.chunk_runs > 25 and many.chunk_runs % 25 == 0
    bt = ranking_run_create(
        campaign=campaign, criterion=criterion, method="bradley_terry", runs=5000, queue=False
    )
    assert bt.chunk_runs == 25


@pytest.mark.parametrize(
    "method,estimated",
    [("wmt14", True), ("bootstrap", True), ("bradley_terry", False), ("expected_wins", False)],
)
def test_only_the_methods_sized_by_cost_count_the_comparisons(
    planted, method, estimated, django_assert_num_queries
):
    """Only WMT14's and TrueSkill bootstrap's chunks are sized by the comparisons: the
    other methods' runs are created without the query that estimates them (it aggregates
    every counted score of the criterion)."""
    campaign, criterion = planted
    ranking_run_create(campaign=campaign, criterion=criterion, runs=RUNS, queue=False)  # warm
    queries = 11 if estimated else 10
    with django_assert_num_queries(queries) as captured:
        run = ranking_run_create(
            campaign=campaign, criterion=criterion, method=method, runs=RUNS, queue=False
        )
    estimates = [q for q in captured.captured_queries if "COUNT(DISTINCT" in q["sql"].upper()]
    assert len(estimates) == int(estimated)
    assert run.chunk_runs == 25
