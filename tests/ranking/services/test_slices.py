"""Runs on each slice (ranking/services/slices.py): the slices page's way (the missing
ones, skip what has nothing to rank, wait after a refusal) and the ``rank`` command's
(all checked first, all or nothing, computed here)."""

from __future__ import annotations

import pytest

from common.errors import DomainError
from ranking.models import RankingRun
from ranking.services import compute
from ranking.services import runs as run_services
from ranking.services.slices import ranking_slices_start
from tests.ranking.sliced_campaign import _sliced

pytestmark = pytest.mark.django_db

BY_SET = [{}, {"challenge_set": "a"}, {"challenge_set": "b"}]


def _wheres() -> list[dict[str, str]]:
    return [run.where for run in RankingRun.objects.order_by("pk")]


def test_the_missing_slices_are_queued_and_a_slice_without_judgements_is_skipped(
    django_user_model, django_capture_on_commit_callbacks
) -> None:
    campaign, criterion = _sliced(20)
    user = django_user_model.objects.create_user("designer")
    done = run_services.ranking_run_create(campaign=campaign, criterion=criterion, queue=False)
    compute.ranking_run_compute(run=done, fan_out=False)
    with django_capture_on_commit_callbacks() as queued:
        started = ranking_slices_start(
            campaign=campaign,
            criterion=criterion,
            slices=[*BY_SET, {"challenge_set": "zzz"}],
            user=user,
            missing_only=True,
        )
    assert (started.started, started.waiting, started.refusal) == (2, 0, "")
    assert [run.where for run in started.runs] == BY_SET[1:]
    assert len(queued) == 2  # each run handed to Celery once committed
    assert all(run.created_by == user and run.status == "pending" for run in started.runs)
    assert _wheres() == BY_SET


def test_once_a_run_is_refused_the_slices_after_it_wait(django_user_model, settings) -> None:
    settings.RANKING_MAX_ACTIVE_RUNS_PER_USER = 1
    campaign, criterion = _sliced(20)
    user = django_user_model.objects.create_user("designer")
    started = ranking_slices_start(
        campaign=campaign, criterion=criterion, slices=BY_SET, user=user, missing_only=True
    )
    assert (started.started, started.waiting) == (1, 2)
    assert started.refusal.startswith("You already have 1 ranking run(s) queued or running")
    assert _wheres() == [{}]


def test_all_or_nothing_checks_every_slice_first_and_writes_nothing_when_one_fails() -> None:
    campaign, criterion = _sliced(20)
    with pytest.raises(DomainError, match="No judgements"):
        ranking_slices_start(
            campaign=campaign,
            criterion=criterion,
            slices=[{}, {"challenge_set": "zzz"}],
            all_or_nothing=True,
            compute_here=True,
        )
    assert not RankingRun.objects.exists()


def test_computed_here_each_run_is_done_with_the_settings_given() -> None:
    campaign, criterion = _sliced(20)
    started = ranking_slices_start(
        campaign=campaign,
        criterion=criterion,
        slices=[{"language": "de"}, {"challenge_set": "a"}],
        all_or_nothing=True,
        compute_here=True,
        runs=10,
        seed=7,
        confidence=0.9,
    )
    assert [run.where for run in started.runs] == [{"language": "de"}, {"challenge_set": "a"}]
    for run in started.runs:
        run.refresh_from_db()
        assert run.status == RankingRun.Status.DONE, run.error
        assert (run.runs, run.seed, run.confidence, run.created_by) == (10, 7, 0.9, None)
    assert (started.waiting, started.refusal) == (0, "")
