"""The domain's rules hold in the database itself, not only in code (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from annotations.models import (
    Assignment,
    Campaign,
    CampaignMembership,
    Criterion,
    Item,
    Judgement,
    JudgementScore,
    Output,
    System,
    Task,
    TaskOutput,
    Worker,
    WorkerCheck,
)
from ranking.models import RankingResult, RankingRun
from tests.factories import (
    AssignmentFactory,
    CampaignFactory,
    CriterionFactory,
    ItemFactory,
    OutputFactory,
    SystemFactory,
    TaskFactory,
    WorkerFactory,
)

pytestmark = pytest.mark.django_db


def refused(write: Callable[[], Any]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


@pytest.mark.parametrize(
    "field,value",
    [
        ("outputs_per_task", 0),
        ("judgements_per_task", 0),
        ("tasks_per_worker", 0),
        ("assignment_timeout_minutes", 0),
        ("attention_check_rate", 1.5),
        ("repeat_rate", -0.1),
        ("quality_threshold", 2.0),
        ("status", "running"),
    ],
)
def test_campaign_settings_out_of_range_are_refused(field, value):
    campaign = CampaignFactory()
    refused(lambda: Campaign.objects.filter(pk=campaign.pk).update(**{field: value}))


def test_campaign_slug_is_unique():
    CampaignFactory(slug="e2e")
    refused(lambda: Campaign.objects.create(slug="e2e", name="again"))


def test_membership_is_one_per_user_and_role_is_known():
    campaign = CampaignFactory()
    user = get_user_model().objects.create(username="ada")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    refused(lambda: CampaignMembership.objects.create(campaign=campaign, user=user, role="owner"))
    other = get_user_model().objects.create(username="bob")
    refused(lambda: CampaignMembership.objects.create(campaign=campaign, user=other, role="king"))


def test_names_are_unique_within_a_campaign_only():
    a, b = CampaignFactory(), CampaignFactory()
    for model, fields in (
        (Criterion, {"name": "quality", "question": "?"}),
        (System, {"label": "tgen"}),
        (Item, {"external_id": "1", "input": "name[Cotto]"}),
    ):
        model.objects.create(campaign=a, **fields)
        model.objects.create(campaign=b, **fields)  # another campaign: fine
        refused(partial(model.objects.create, campaign=a, **fields))


def test_criterion_scale_is_known():
    campaign = CampaignFactory()
    refused(
        lambda: Criterion.objects.create(campaign=campaign, name="x", question="?", scale="stars")
    )


def test_one_output_per_system_and_item_and_canonical_is_not_itself():
    output = OutputFactory()
    refused(lambda: Output.objects.create(item=output.item, system=output.system, text="again"))
    refused(lambda: Output.objects.filter(pk=output.pk).update(canonical=output.pk))


def test_task_external_ids_are_unique_per_criterion_but_blank_may_repeat():
    task = TaskFactory(external_id="unit-1")
    TaskFactory(campaign=task.campaign, criterion=task.criterion, external_id="")
    TaskFactory(campaign=task.campaign, criterion=task.criterion, external_id="")
    refused(
        lambda: Task.objects.create(
            campaign=task.campaign, criterion=task.criterion, item=task.item, external_id="unit-1"
        )
    )
    refused(lambda: Task.objects.filter(pk=task.pk).update(kind="bonus"))


def test_an_output_appears_once_in_a_task_except_as_its_degraded_copy():
    task = TaskFactory()
    output = OutputFactory(item=task.item)
    TaskOutput.objects.create(task=task, output=output, slot=0)
    TaskOutput.objects.create(task=task, output=output, slot=1, role="degraded", text="copy copy")
    refused(lambda: TaskOutput.objects.create(task=task, output=output, slot=2))
    refused(lambda: TaskOutput.objects.create(task=task, output=output, slot=3, role="other"))


def test_worker_identity_is_unique_per_campaign_and_platform_is_known():
    worker = WorkerFactory(platform="prolific", external_id="P1")
    Worker.objects.create(campaign=worker.campaign, platform="mturk", external_id="P1")
    refused(
        lambda: Worker.objects.create(
            campaign=worker.campaign, platform="prolific", external_id="P1"
        )
    )
    refused(
        lambda: Worker.objects.create(campaign=worker.campaign, platform="fax", external_id="P2")
    )


def test_a_worker_never_holds_a_task_or_an_item_twice_except_repeats_and_imports():
    assignment = AssignmentFactory()
    task, worker = assignment.task, assignment.worker
    now = timezone.now()

    def assign(on: Task, **fields: Any) -> Assignment:
        return Assignment.objects.create(
            worker=worker, task=on, item=on.item, criterion=on.criterion, started_at=now, **fields
        )

    refused(lambda: assign(task))
    same_item = TaskFactory(campaign=task.campaign, criterion=task.criterion, item=task.item)
    refused(lambda: assign(same_item))
    assign(task, kind="repeat")
    assign(same_item, kind="imported")
    other_criterion = TaskFactory(campaign=task.campaign, item=task.item)
    assign(other_criterion)  # same item, another criterion: allowed
    refused(lambda: assign(TaskFactory(campaign=task.campaign), state="lost"))
    refused(lambda: assign(TaskFactory(campaign=task.campaign), kind="bonus"))
    # submitted_at only on a submitted assignment
    refused(lambda: Assignment.objects.filter(pk=assignment.pk).update(submitted_at=now))


def _judgement(assignment: Assignment, **fields: Any) -> Judgement:
    now = timezone.now()
    values = {
        "started_at": now,
        "submitted_at": now + timedelta(seconds=30),
        "seconds_on_task": 30.0,
    }
    values.update(fields)
    return Judgement.objects.create(
        assignment=assignment,
        task=assignment.task,
        worker=assignment.worker,
        criterion=assignment.criterion,
        **values,
    )


def test_one_judgement_per_assignment_with_sane_times():
    assignment = AssignmentFactory()
    _judgement(assignment)
    refused(lambda: _judgement(assignment))
    other = AssignmentFactory()
    refused(lambda: _judgement(other, seconds_on_task=-1.0))
    now = timezone.now()
    refused(lambda: _judgement(other, started_at=now, submitted_at=now - timedelta(seconds=1)))


def test_scores_are_nonnegative_ranks_start_at_one_and_an_output_is_scored_once():
    assignment = AssignmentFactory()
    judgement = _judgement(assignment)
    output = OutputFactory(item=assignment.item)
    JudgementScore.objects.create(judgement=judgement, output=output, slot=0, score=100, rank=1)
    refused(
        lambda: JudgementScore.objects.create(
            judgement=judgement, output=output, slot=1, score=50, rank=2
        )
    )
    other = OutputFactory(item=assignment.item)
    refused(
        lambda: JudgementScore.objects.create(
            judgement=judgement, output=other, slot=1, score=-5, rank=2
        )
    )
    refused(
        lambda: JudgementScore.objects.create(
            judgement=judgement, output=other, slot=1, score=5, rank=0
        )
    )
    # The attention check's degraded copy of the same output is scored beside it.
    JudgementScore.objects.create(
        judgement=judgement, output=output, slot=2, score=20, rank=3, role="degraded"
    )


def test_a_workers_payment_review_is_one_of_the_review_choices():
    """One ``Worker.Review`` names the values: the field, its database check, the
    payment form's choices and the service's check all take them from it."""
    from annotations.forms.payments import REVIEW_CHOICES

    assert Worker.Review.values == ["", "approved", "rejected"]
    assert Worker._meta.get_field("review").choices == Worker.Review.choices
    assert [value for value, _ in REVIEW_CHOICES] == Worker.Review.values
    worker = WorkerFactory()
    for value in Worker.Review.values:
        Worker.objects.filter(pk=worker.pk).update(review=value)
    refused(lambda: Worker.objects.filter(pk=worker.pk).update(review="paid"))


def test_worker_checks_are_one_per_assignment_and_kind():
    assignment = AssignmentFactory()
    WorkerCheck.objects.create(
        worker=assignment.worker, assignment=assignment, kind="attention", passed=True
    )
    refused(
        lambda: WorkerCheck.objects.create(
            worker=assignment.worker, assignment=assignment, kind="attention", passed=False
        )
    )
    refused(
        lambda: WorkerCheck.objects.create(
            worker=assignment.worker, assignment=assignment, kind="mood", passed=False
        )
    )


@pytest.mark.parametrize(
    "fields",
    [{"progress": 1.5}, {"confidence": 1.0}, {"runs": 0}, {"status": "lost"}],
)
def test_ranking_run_fields_are_checked(fields):
    criterion = CriterionFactory()
    run = RankingRun.objects.create(campaign=criterion.campaign, criterion=criterion)
    refused(lambda: RankingRun.objects.filter(pk=run.pk).update(**fields))


def test_ranking_results_are_one_per_system_with_ordered_ranges():
    criterion = CriterionFactory()
    run = RankingRun.objects.create(campaign=criterion.campaign, criterion=criterion)
    system = SystemFactory(campaign=criterion.campaign)

    def result(system: System = system, **fields: Any) -> RankingResult:
        values = {"value": 0.1, "rank_lo": 1, "rank_hi": 2, "cluster": 1}
        values.update(fields)
        return RankingResult.objects.create(run=run, system=system, **values)

    result()
    refused(result)
    other = SystemFactory(campaign=criterion.campaign)
    refused(lambda: result(other, rank_lo=3, rank_hi=2))
    refused(lambda: result(other, rank_lo=0))
    refused(lambda: result(other, cluster=0))


def test_deleting_a_campaign_removes_everything_in_it():
    assignment = AssignmentFactory()
    _judgement(assignment)
    ItemFactory(campaign=assignment.task.campaign)
    assignment.task.campaign.delete()
    for model in (Criterion, System, Item, Output, Task, Worker, Assignment, Judgement):
        assert not model.objects.exists(), model.__name__
