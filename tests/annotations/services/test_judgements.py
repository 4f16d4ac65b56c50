"""Recording judgements: validation, idempotency, time on task, merged outputs, ranking rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Judgement,
    JudgementScore,
    TaskOutput,
)
from annotations.services.assignment import task_next_for
from annotations.services.judgements import (
    AssignmentExpired,
    InvalidScores,
    TooFast,
    assignment_to_submit,
    judgement_submit,
)
from annotations.services.quality import attention_task_create
from common.errors import DomainError
from ranking.selectors.runs import ranking_scores
from tests.factories import (
    CampaignFactory,
    CriterionFactory,
    OutputFactory,
    SystemFactory,
    WorkerFactory,
    task_with_outputs,
)

pytestmark = pytest.mark.django_db


def claimed(**campaign_fields):
    campaign = CampaignFactory(status=Campaign.Status.LIVE, **campaign_fields)
    task = task_with_outputs(campaign=campaign)
    worker = WorkerFactory(campaign=campaign)
    return task_next_for(worker=worker, campaign=campaign), task


def test_submit_stores_scores_and_ranks_and_marks_assignment():
    assignment, _task = claimed()
    judgement = judgement_submit(assignment=assignment, scores={0: 150, 1: 100, 2: 150})
    rows = list(judgement.scores.order_by("slot").values_list("slot", "score", "rank"))
    assert rows == [(0, 150.0, 1.0), (1, 100.0, 3.0), (2, 150.0, 1.0)]
    assignment.refresh_from_db()
    assert assignment.state == Assignment.State.SUBMITTED
    assert assignment.submitted_at == judgement.submitted_at
    assert judgement.seconds_on_task >= 0


def test_submit_is_idempotent():
    assignment, _ = claimed()
    first = judgement_submit(assignment=assignment, scores={0: 1, 1: 2, 2: 3})
    again = judgement_submit(assignment=assignment, scores={0: 9, 1: 9, 2: 9})
    assert first.pk == again.pk
    assert Judgement.objects.count() == 1
    assert list(JudgementScore.objects.order_by("slot").values_list("score", flat=True)) == [
        1,
        2,
        3,
    ]


@pytest.mark.parametrize(
    "scores, slot",
    [
        ({0: 100, 1: 100}, 2),
        ({0: 0, 1: 100, 2: 100}, 0),
        ({0: 1.5, 1: 100, 2: 1}, 0),
        ({0: 1_000_000, 1: 1, 2: 1}, 0),
    ],
)
def test_invalid_magnitude_scores_are_refused(scores, slot):
    assignment, _ = claimed()
    with pytest.raises(InvalidScores) as info:
        judgement_submit(assignment=assignment, scores=scores)
    assert slot in info.value.errors
    assert Judgement.objects.count() == 0


def test_likert_and_slider_scales_are_checked():
    campaign = CampaignFactory(status=Campaign.Status.LIVE)
    likert = CriterionFactory(
        campaign=campaign,
        scale=Criterion.Scale.LIKERT,
        scale_settings={
            "levels": [{"value": v, "label": str(v), "descriptor": ""} for v in (1, 2, 3)]
        },
    )
    task_with_outputs(campaign=campaign, criterion=likert)
    assignment = task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign)
    assert assignment is not None
    with pytest.raises(InvalidScores):
        judgement_submit(assignment=assignment, scores={0: 1, 1: 4, 2: 2})
    assert judgement_submit(assignment=assignment, scores={0: 1, 1: 3, 2: 2}).pk
    slider_campaign = CampaignFactory(status=Campaign.Status.LIVE)
    slider = CriterionFactory(
        campaign=slider_campaign, scale=Criterion.Scale.SLIDER, scale_settings={}
    )
    task_with_outputs(campaign=slider_campaign, criterion=slider)
    a = task_next_for(worker=WorkerFactory(campaign=slider_campaign), campaign=slider_campaign)
    assert a is not None
    with pytest.raises(InvalidScores):
        judgement_submit(assignment=a, scores={0: 101, 1: 3, 2: 2})
    assert judgement_submit(assignment=a, scores={0: 0, 1: 37.5, 2: 100}).scores.count() == 3


def test_too_fast_refused_or_warned():
    assignment, _ = claimed(min_seconds_per_task=30, min_time_policy="refuse")
    with pytest.raises(TooFast) as info:
        judgement_submit(
            assignment=assignment, scores={0: 1, 1: 2, 2: 3}, acknowledge_too_fast=True
        )
    assert not info.value.can_confirm
    later = assignment.started_at + timedelta(seconds=31)
    assert judgement_submit(
        assignment=assignment, scores={0: 1, 1: 2, 2: 3}, now=later
    ).seconds_on_task == pytest.approx(31)

    warned, _ = claimed(min_seconds_per_task=30, min_time_policy="warn")
    with pytest.raises(TooFast) as info:
        judgement_submit(assignment=warned, scores={0: 1, 1: 2, 2: 3})
    assert info.value.can_confirm
    judgement = judgement_submit(
        assignment=warned, scores={0: 1, 1: 2, 2: 3}, acknowledge_too_fast=True
    )
    assert judgement.too_fast is True


def test_late_submission_accepted_only_while_the_place_is_free():
    assignment, task = claimed(judgements_per_task=1, assignment_timeout_minutes=1)
    late = assignment.started_at + timedelta(minutes=5)
    assert judgement_submit(assignment=assignment, scores={0: 1, 1: 2, 2: 3}, now=late).pk

    lost, task = claimed(judgements_per_task=1, assignment_timeout_minutes=1)
    later = lost.started_at + timedelta(minutes=5)
    other = WorkerFactory(campaign=task.campaign)
    taken = task_next_for(worker=other, campaign=task.campaign, now=later)
    assert taken is not None and taken.task_id == task.pk
    with pytest.raises(AssignmentExpired):
        judgement_submit(assignment=lost, scores={0: 1, 1: 2, 2: 3}, now=later)


def test_closed_campaign_refuses_submissions():
    assignment, task = claimed()
    Campaign.objects.filter(pk=task.campaign_id).update(status="closed")
    with pytest.raises(DomainError):
        judgement_submit(assignment=assignment, scores={0: 1, 1: 2, 2: 3})


def test_merged_outputs_each_get_the_slot_score_and_ranking_rows_leave_checks_out():
    campaign = CampaignFactory(status=Campaign.Status.LIVE, repeat_rate=0)
    task = task_with_outputs(campaign=campaign)
    twin_system = SystemFactory(campaign=campaign, label="twin")
    twin = OutputFactory(
        item=task.item, system=twin_system, text=task.task_outputs.get(slot=0).output.text
    )
    TaskOutput.objects.create(task=task, output=twin, slot=0)
    worker = WorkerFactory(campaign=campaign)
    a = task_next_for(worker=worker, campaign=campaign)
    assert a is not None
    judgement = judgement_submit(assignment=a, scores={0: 120, 1: 80, 2: 40})
    slot0 = judgement.scores.filter(slot=0)
    assert slot0.count() == 2 and set(slot0.values_list("score", flat=True)) == {120.0}

    # An attention check and a repeat by another worker must stay out of the ranking.
    check = attention_task_create(task=task, rng=__import__("numpy").random.default_rng(0))
    checker = WorkerFactory(campaign=campaign)
    att = Assignment.objects.create(
        worker=checker,
        task=check,
        item=task.item,
        criterion=task.criterion,
        started_at=timezone.now(),
        display_order=[0, 1, 2],
    )
    judgement_submit(assignment=att, scores={0: 10, 1: 20, 2: 30})
    rep = Assignment.objects.create(
        worker=worker,
        task=task,
        item=task.item,
        criterion=task.criterion,
        kind="repeat",
        started_at=timezone.now(),
        display_order=[0, 1, 2],
    )
    judgement_submit(assignment=rep, scores={0: 100, 1: 90, 2: 80})

    data = ranking_scores(criterion=task.criterion, exclude_excluded_workers=True)
    assert data.n_judgements == 1
    labels = [data.systems[i].label for i in data.system]
    assert len(labels) == 4  # three slots, the first holding two merged outputs
    assert dict(zip(labels, data.score.tolist(), strict=True))["twin"] == 120.0
    assert data.slot.tolist().count(0) == 2

    worker.excluded = True
    worker.save(update_fields=["excluded"])
    assert ranking_scores(criterion=task.criterion, exclude_excluded_workers=True).n_judgements == 0
    assert (
        ranking_scores(criterion=task.criterion, exclude_excluded_workers=False).n_judgements == 1
    )


# -- content checks and the too-fast message --------------------------------------------


def test_content_checks_are_validated_stored_per_output_and_idempotent():
    campaign = CampaignFactory(status=Campaign.Status.LIVE)
    criterion = CriterionFactory(campaign=campaign, content_checks=["added", "missing"])
    task_with_outputs(campaign=campaign, criterion=criterion)
    assignment = task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign)
    assert assignment is not None
    scores = {0: 100, 1: 50, 2: 20}
    with pytest.raises(InvalidScores) as info:  # "perfect" is not asked in this criterion
        judgement_submit(assignment=assignment, scores=scores, checks={0: ["perfect"]})
    assert "perfect" in info.value.errors[0]
    with pytest.raises(InvalidScores):
        judgement_submit(assignment=assignment, scores=scores, checks={7: ["added"]})
    assert Judgement.objects.count() == 0
    judgement = judgement_submit(
        assignment=assignment, scores=scores, checks={1: ["missing", "added"], 2: ["missing"]}
    )
    stored = dict(judgement.scores.values_list("slot", "checks"))
    assert stored == {0: [], 1: ["added", "missing"], 2: ["missing"]}
    again = judgement_submit(assignment=assignment, scores=scores, checks={0: ["added"]})
    assert again.pk == judgement.pk
    assert dict(again.scores.values_list("slot", "checks")) == stored


def test_too_fast_message_shows_the_real_seconds_and_the_minimum():
    assignment, _ = claimed(min_seconds_per_task=30, min_time_policy="warn")
    soon = assignment.started_at + timedelta(seconds=4.26)
    with pytest.raises(TooFast) as info:
        judgement_submit(assignment=assignment, scores={0: 1, 1: 2, 2: 3}, now=soon)
    assert "You spent 4.3 seconds" in str(info.value) and "at least 30" in str(info.value)
    refused, _ = claimed(min_seconds_per_task=30, min_time_policy="refuse")
    later = refused.started_at + timedelta(seconds=12.4)
    with pytest.raises(TooFast) as info:
        judgement_submit(assignment=refused, scores={0: 1, 1: 2, 2: 3}, now=later)
    assert "You spent 12 seconds" in str(info.value) and "at least 30 seconds" in str(info.value)


def test_a_submit_stamps_the_worker_seen_and_a_refused_one_leaves_no_trace():
    # The worker row's lock is the statement that stamps ``last_seen_at``: a refused
    # submission is undone whole, stamp included.
    assignment, _ = claimed(min_seconds_per_task=30, min_time_policy="refuse")
    worker = assignment.worker
    seen = type(worker).objects.get(pk=worker.pk).last_seen_at
    with pytest.raises(TooFast):
        judgement_submit(
            assignment=assignment, scores={0: 1, 1: 2, 2: 3}, now=assignment.started_at
        )
    assert type(worker).objects.get(pk=worker.pk).last_seen_at == seen
    later = assignment.started_at + timedelta(minutes=1)
    judgement = judgement_submit(assignment=assignment, scores={0: 1, 1: 2, 2: 3}, now=later)
    assert type(worker).objects.get(pk=worker.pk).last_seen_at == later
    assert judgement.submitted_at == later and judgement.seconds_on_task == 60.0


@pytest.mark.django_db(transaction=True)
def test_the_submit_that_the_caller_locked_needs_the_callers_transaction():
    assignment, _ = claimed()
    with pytest.raises(TransactionManagementError):
        assignment_to_submit(worker=assignment.worker, assignment_id=assignment.pk)
    with pytest.raises(TransactionManagementError):
        judgement_submit(assignment=assignment, scores={0: 1, 1: 2, 2: 3}, already_locked=True)
    later = assignment.started_at + timedelta(minutes=1)
    with transaction.atomic():
        locked = assignment_to_submit(worker=assignment.worker, assignment_id=assignment.pk)
        assert locked is not None and locked.task.criterion_id == assignment.criterion_id
        judgement = judgement_submit(
            assignment=locked, scores={0: 1, 1: 2, 2: 3}, now=later, already_locked=True
        )
    assert Judgement.objects.get().pk == judgement.pk
    other = WorkerFactory(campaign=assignment.worker.campaign)
    with transaction.atomic():
        assert assignment_to_submit(worker=other, assignment_id=assignment.pk) is None
