"""The copies the database does not check (COPIES in annotations.models) agree with the
rows they copy after every writer, and ``copies_disagreeing`` finds the ones that do not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from django.db import IntegrityError, transaction

from annotations.importing.wmt import wmt_import
from annotations.models import (
    Assignment,
    Criterion,
    Judgement,
    JudgementScore,
    Output,
    Task,
    TaskOutput,
    Worker,
)
from annotations.selectors.integrity import copies_disagreeing
from annotations.services.assignment import task_next_for
from annotations.services.demo import demo_campaign_seed
from annotations.services.judgements import judgement_submit
from annotations.services.quality import attention_task_create
from tests.annotations.importing.conftest import write_csv
from tests.annotations.importing.test_wmt import GOOD
from tests.factories import (
    AssignmentFactory,
    CampaignFactory,
    CriterionFactory,
    ItemFactory,
    OutputFactory,
    WorkerFactory,
    task_with_outputs,
)

pytestmark = pytest.mark.django_db

SOUND = {"tasks": 0, "assignments": 0, "judgements": 0, "scores": 0}


def _live_campaign():
    """A live campaign with a regular task, its attention check, and a worker's
    judgement of each, both through the worker's own services."""
    campaign = CampaignFactory(status="live")
    task = task_with_outputs(campaign=campaign)
    check = attention_task_create(task=task, rng=np.random.default_rng(1))
    worker = WorkerFactory(campaign=campaign)
    handed = task_next_for(worker=worker, campaign=campaign)
    assert handed is not None and handed.task_id == task.pk
    judgement_submit(assignment=handed, scores={0: 120, 1: 80, 2: 40})
    # The same item again (a repeat's kind), as a check handed out in a session would be.
    on_check = AssignmentFactory(
        worker=worker, task=check, kind=Assignment.Kind.REPEAT, display_order=[0, 1, 2]
    )
    judgement_submit(assignment=on_check, scores={0: 120, 1: 80, 2: 40})
    return campaign, task, check


def test_copies_agree_after_the_worker_services():
    campaign, task, check = _live_campaign()
    assert Judgement.objects.filter(task__in=[task, check]).count() == 2
    assert JudgementScore.objects.filter(role="degraded").count() == 1
    assert copies_disagreeing(campaign=campaign) == SOUND


def test_copies_agree_after_an_import_and_the_demo(tmp_path: Path):
    campaign = CampaignFactory()
    wmt_import(campaign=campaign, path=write_csv(tmp_path / "wmt.csv", GOOD))
    assert Judgement.objects.filter(task__campaign=campaign).count() == 2
    assert copies_disagreeing(campaign=campaign) == SOUND
    demo = demo_campaign_seed().campaign
    assert Judgement.objects.filter(task__campaign=demo).exists()
    assert copies_disagreeing(campaign=demo) == SOUND


@pytest.mark.parametrize(
    ("tables", "corrupt"),
    [
        (
            ("tasks",),
            lambda t, j, o: Task.objects.filter(pk=t.pk).update(campaign=CampaignFactory()),
        ),
        (
            # The assignment's copy of the task's item now disagrees as well.
            ("tasks", "assignments"),
            lambda t, j, o: Task.objects.filter(pk=t.pk).update(
                item=ItemFactory(campaign=CampaignFactory())
            ),
        ),
        (
            ("assignments",),
            lambda t, j, o: Assignment.objects.filter(pk=j.assignment_id).update(
                item=ItemFactory(campaign=t.campaign)
            ),
        ),
        (
            # The judgement's copy of the assignment's criterion now disagrees as well.
            ("assignments", "judgements"),
            lambda t, j, o: Assignment.objects.filter(pk=j.assignment_id).update(
                criterion=CriterionFactory(campaign=t.campaign)
            ),
        ),
        (
            ("judgements",),
            lambda t, j, o: Judgement.objects.filter(pk=j.pk).update(
                worker=WorkerFactory(campaign=t.campaign)
            ),
        ),
        (
            ("judgements",),
            lambda t, j, o: Judgement.objects.filter(pk=j.pk).update(
                criterion=CriterionFactory(campaign=t.campaign)
            ),
        ),
        (
            ("scores",),
            lambda t, j, o: JudgementScore.objects.filter(judgement=j, slot=0).update(output=o),
        ),
    ],
)
def test_a_copy_that_disagrees_is_counted(tables, corrupt):
    campaign = CampaignFactory(status="live")
    task = task_with_outputs(campaign=campaign)
    worker = WorkerFactory(campaign=campaign)
    assignment = task_next_for(worker=worker, campaign=campaign)
    assert assignment is not None
    judgement = judgement_submit(assignment=assignment, scores={0: 120, 1: 80, 2: 40})
    # An output of the same item, in no slot of the task.
    other = OutputFactory(item=task.item, system__campaign=campaign, system__label="other")
    corrupt(task, judgement, other)
    assert copies_disagreeing(campaign=campaign) == {**SOUND, **dict.fromkeys(tables, 1)}


def test_a_copy_pointing_nowhere_is_counted():
    """Without a foreign-key check the database would keep a copy of a deleted row; the
    selector names it (Django's own deletes follow every copy, see the next test)."""
    campaign = CampaignFactory(status="live")
    task_with_outputs(campaign=campaign)
    worker = WorkerFactory(campaign=campaign)
    assignment = task_next_for(worker=worker, campaign=campaign)
    assert assignment is not None
    judgement = judgement_submit(assignment=assignment, scores={0: 120, 1: 80, 2: 40})
    missing = (Worker.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1000
    Judgement.objects.filter(pk=judgement.pk).update(worker_id=missing)
    assert copies_disagreeing(campaign=campaign) == {**SOUND, "judgements": 1}


def test_deletes_still_follow_the_copies():
    """Deleting a row deletes what copies it (Django's on_delete, not the database)."""
    campaign, task, _ = _live_campaign()
    scored = JudgementScore.objects.filter(judgement__task=task).first()
    assert scored is not None
    Output.objects.filter(pk=scored.output_id).delete()
    assert not JudgementScore.objects.filter(output_id=scored.output_id).exists()
    criterion = task.criterion
    Criterion.objects.filter(pk=criterion.pk).delete()
    assert not Judgement.objects.filter(criterion_id=criterion.pk).exists()
    assert not Assignment.objects.filter(criterion_id=criterion.pk).exists()
    assert not Task.objects.filter(criterion_id=criterion.pk).exists()
    assert copies_disagreeing(campaign=campaign) == SOUND


def test_an_output_once_per_task_and_role():
    """The unique rule that replaced the regular-only one: a degraded copy may sit beside
    its regular output, but neither role may hold an output twice in one task."""
    task = task_with_outputs()
    output = task.task_outputs.get(slot=0).output
    TaskOutput.objects.create(task=task, output=output, slot=1, role="degraded", text="Copy.")
    for role in ("regular", "degraded"):
        with pytest.raises(IntegrityError), transaction.atomic():
            TaskOutput.objects.create(task=task, output=output, slot=2, role=role)
