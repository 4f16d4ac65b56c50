"""A run's life cycle (ranking/services/runs.py): cancel, retry, delete, and the caps on what is queued."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from common.errors import DomainError
from ranking.models import RankingRun
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import (
    ranking_run_cancel,
    ranking_run_create,
    ranking_run_delete,
    ranking_run_retry,
    ranking_run_start,
)
from ranking.services.sweep import ranking_runs_sweep
from tests.at_once import NEEDS_ROW_LOCKS, at_once
from tests.ranking.planted import planted_campaign
from tests.ranking.running_runs import _running

pytestmark = pytest.mark.django_db


STRENGTHS = [60.0, 20.0, -20.0, -60.0]


@pytest.fixture
def planted():
    return planted_campaign(strengths=STRENGTHS, n_judgements=40, seed=11, k=4)


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
    with pytest.raises(DomainError, match=r"At most 100,000 runs per ranking \(asked: 100,001\)"):
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

    def start(user: User, seed: int) -> RankingRun:
        return ranking_run_create(
            campaign=campaign, criterion=criterion, user=user, seed=seed, queue=False
        )

    first = start(designer, 1)
    start(designer, 2)
    with pytest.raises(DomainError, match=r"already have 2 ranking run\(s\) queued or running"):
        start(designer, 3)
    # The same request as an active run is that run, even at the cap (a form sent twice).
    assert start(designer, 1) == first
    # Others are not affected, and a finished run frees a place.
    start(other, 1)
    ranking_run_compute(run=first)
    start(designer, 3)


def test_a_form_sent_twice_starts_one_run(planted, settings):
    """The designer's second send of the same request while the first run is pending or
    running gets that run (the page then shows it); once it is done, the same request
    starts a new one. Requests without a designer (the CLI, tests) always start one."""
    campaign, criterion = planted
    settings.RANKING_MAX_ACTIVE_RUNS_PER_USER = 10
    designer = User.objects.create_user("twice")
    request = dict(campaign=campaign, criterion=criterion, runs=20, queue=False)
    first = ranking_run_create(user=designer, **request)
    assert ranking_run_create(user=designer, **request) == first
    assert ranking_run_create(user=designer, where=None, parameters={}, **request) == first
    for other in ({"seed": 9}, {"confidence": 0.9}, {"exclude_flagged": False}):
        assert ranking_run_create(user=designer, **request, **other) != first
    assert ranking_run_create(user=None, **request) != first
    RankingRun.objects.filter(pk=first.pk).update(status=RankingRun.Status.RUNNING)
    assert ranking_run_create(user=designer, **request) == first
    ranking_run_compute(run=first)
    assert ranking_run_create(user=designer, **request) != first


def test_a_run_deleted_twice_or_deleted_meanwhile_is_no_error(planted):
    """Two deletes of one run at once: the second finds it gone. Before, its locked read
    (``.get``) raised DoesNotExist, a 500 on the page and the API; cancelling or
    retrying a run deleted meanwhile says so."""
    campaign, criterion = planted
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=20, queue=False)
    ranking_run_compute(run=run)
    stale = RankingRun.objects.get(pk=run.pk)
    ranking_run_delete(run=run)
    ranking_run_delete(run=stale)
    assert not RankingRun.objects.filter(pk=run.pk).exists()
    for action in (ranking_run_cancel, ranking_run_retry):
        with pytest.raises(DomainError, match="was deleted meanwhile"):
            action(run=stale)


def test_ranking_run_start_says_whether_it_made_the_run(planted):
    """The API's 201 or 200 comes from here, decided under the designer's lock (it was a
    comparison of times, which said 201 to every request that had waited for the lock)."""
    campaign, criterion = planted
    designer = User.objects.create_user("starter")
    request = dict(campaign=campaign, criterion=criterion, runs=20, queue=False, user=designer)
    first = ranking_run_start(**request)
    again = ranking_run_start(**request)
    assert (first.created, again.created) == (True, False) and again.run == first.run


@pytest.mark.django_db(transaction=True)
@NEEDS_ROW_LOCKS
def test_five_identical_starts_at_once_make_one_run_and_say_so_once_on_postgresql():
    campaign, criterion = planted_campaign(strengths=STRENGTHS, n_judgements=40, seed=11, k=4)
    designer = User.objects.create_user("racer")

    def start() -> tuple[int, bool]:
        started = ranking_run_start(
            campaign=campaign, criterion=criterion, runs=20, queue=False, user=designer
        )
        return started.run.pk, started.created

    outcomes = at_once(start, times=5)
    (pk,) = RankingRun.objects.values_list("pk", flat=True)
    assert sorted(outcomes, key=str) == sorted([(pk, True)] + [(pk, False)] * 4, key=str)
