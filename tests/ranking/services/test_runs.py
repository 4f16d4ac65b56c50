import pytest

from annotations.models import Worker
from common.errors import DomainError
from ranking.models import RankingRun
from ranking.selectors.runs import ranking_run_rows, ranking_scores
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.factories import CriterionFactory
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db

STRENGTHS = [80.0, 40.0, 0.0, -40.0, -80.0, -120.0]


def _run(campaign, criterion, **kwargs):
    run = ranking_run_create(campaign=campaign, criterion=criterion, queue=False, **kwargs)
    return ranking_run_compute(run=run)


def _numbers(run):
    return [
        (r.system, r.value, r.spread, r.rank_lo, r.rank_hi, r.cluster)
        for r in ranking_run_rows(run=run)
    ]


def test_same_seed_same_data_gives_identical_results_and_stores_how():
    campaign, criterion = planted_campaign(strengths=STRENGTHS, n_judgements=80, seed=1)
    first = _run(campaign, criterion, runs=40, seed=7)
    second = _run(campaign, criterion, runs=40, seed=7)
    other = _run(campaign, criterion, runs=40, seed=8)
    assert _numbers(first) == _numbers(second)
    assert _numbers(first) != _numbers(other)
    assert first.fingerprint == second.fingerprint and len(first.fingerprint) == 64
    assert first.seed == 7 and first.runs == 40 and first.method == "wmt14"
    assert first.n_judgements == 80
    assert first.n_comparisons == 80 * 10
    assert first.status == RankingRun.Status.DONE and first.progress == 1.0
    assert first.stability["note"]


def test_planted_order_is_recovered_with_separate_clusters_at_the_extremes():
    campaign, criterion = planted_campaign(strengths=STRENGTHS, n_judgements=150, seed=2, noise=10)
    rows = ranking_run_rows(run=_run(campaign, criterion, runs=50, seed=1))
    assert [r.system for r in rows] == ["s0", "s1", "s2", "s3", "s4", "s5"]
    assert rows[0].cluster == 1 and rows[0].rank_lo == rows[0].rank_hi == 1
    assert (rows[-1].cluster or 0) > 1  # computed rows always carry their cluster


@pytest.mark.parametrize("method", ["bootstrap", "bradley_terry", "expected_wins"])
def test_every_method_ranks_the_planted_best_first(method):
    campaign, criterion = planted_campaign(strengths=STRENGTHS, n_judgements=100, seed=3, noise=10)
    rows = ranking_run_rows(run=_run(campaign, criterion, method=method, runs=30, seed=1))
    assert rows[0].system == "s0" and rows[-1].system == "s5"
    assert all(r.rank_lo <= r.rank_hi for r in rows)


def test_excluded_workers_leave_the_ranking_when_the_run_says_so():
    campaign, criterion = planted_campaign(strengths=STRENGTHS, n_judgements=50, seed=4)
    all_scores = ranking_scores(criterion=criterion)
    Worker.objects.filter(campaign=campaign, external_id="w0").update(excluded=True)
    kept = ranking_scores(criterion=criterion)
    assert kept.n_judgements == 40  # w0 gave every fifth judgement
    assert kept.fingerprint != all_scores.fingerprint
    assert (
        ranking_scores(criterion=criterion, exclude_excluded_workers=False).fingerprint
        == all_scores.fingerprint
    )
    run = _run(campaign, criterion, runs=10, seed=1)
    assert run.n_judgements == 40
    run = _run(campaign, criterion, runs=10, seed=1, exclude_flagged=False)
    assert run.n_judgements == 50


def test_a_criterion_without_judgements_is_refused_then_fails_clearly_if_they_go():
    campaign, criterion = planted_campaign(strengths=STRENGTHS[:3], n_judgements=5, seed=5)
    empty = CriterionFactory(campaign=campaign, name="naturalness")
    # Refused before anything is stored (tests/ranking/views/test_runs_no_judgements.py).
    with pytest.raises(DomainError, match="no judgements to rank yet"):
        ranking_run_create(campaign=campaign, criterion=empty, queue=False)
    assert not RankingRun.objects.exists()
    # Judgements that go between the request and the computation: a clear failure.
    run = ranking_run_create(campaign=campaign, criterion=criterion, queue=False)
    criterion.judgements.all().delete()
    with pytest.raises(DomainError, match="no judgements"):
        ranking_run_compute(run=run)
    run.refresh_from_db()
    assert run.status == RankingRun.Status.FAILED and "no judgements" in run.error


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"method": "elo"}, "^Unknown method"),
        ({"runs": 0}, "^A ranking needs at least one run"),
        ({"confidence": 1.5}, "^The confidence level must lie between 0 and 1"),
        ({"parameters": {"no_such_parameter": 1}}, "^Parameters of wmt14"),
    ],
)
def test_bad_requests_are_refused_before_anything_is_stored(kwargs, message):
    campaign, criterion = planted_campaign(strengths=STRENGTHS[:3], n_judgements=5, seed=6)
    with pytest.raises(DomainError, match=message) as refused:
        ranking_run_create(campaign=campaign, criterion=criterion, queue=False, **kwargs)
    # A sentence with its field named apart (was "runs: A ranking needs ...").
    assert refused.value.field == next(iter(kwargs))
    assert not RankingRun.objects.exists()


def test_trueskill_parameters_are_passed_to_the_method():
    campaign, criterion = planted_campaign(strengths=STRENGTHS, n_judgements=40, seed=7)
    default = _run(campaign, criterion, runs=10, seed=1)
    wider = _run(
        campaign, criterion, runs=10, seed=1, parameters={"sigma0": 1.0, "draw_probability": 0.1}
    )
    assert wider.parameters == {"sigma0": 1.0, "draw_probability": 0.1}
    assert _numbers(default) != _numbers(wider)


def test_the_model_offers_exactly_the_methods_the_statistics_compute():
    from ranking import stats

    assert set(RankingRun.Method.values) == set(stats.METHODS)
    for method in stats.METHODS:
        stats.check_parameters(method, stats.method_parameters(method), runs=1, confidence=0.5)
