"""Campaigns for the datasheet tests."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from annotations.models import (
    Judgement,
    JudgementScore,
)
from reports.selectors.datasheet import datasheet_for
from tests.factories import (
    AssignmentFactory,
)


def _judge(task, worker, scores, too_fast=False):
    now = timezone.now()
    a = AssignmentFactory(task=task, worker=worker, state="submitted", submitted_at=now)
    j = Judgement.objects.create(
        assignment=a,
        task=task,
        worker=worker,
        criterion=task.criterion,
        started_at=now - timedelta(seconds=30),
        submitted_at=now,
        seconds_on_task=30,
        too_fast=too_fast,
    )
    ranked = sorted(scores, reverse=True)
    for to, s in zip(task.task_outputs.all(), scores, strict=True):
        JudgementScore.objects.create(
            judgement=j, output=to.output, slot=to.slot, score=s, rank=ranked.index(s) + 1
        )
    return a


def _answers(c):
    return {e.key: e for e in datasheet_for(campaign=c).entries}
