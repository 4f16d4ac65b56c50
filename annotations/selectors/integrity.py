"""Reads that check the copies the database does not check (see COPIES in annotations.models)."""

from __future__ import annotations

from django.db.models import Exists, F, OuterRef

from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Item,
    Judgement,
    JudgementScore,
    Output,
    Task,
    TaskOutput,
    Worker,
)


def copies_disagreeing(*, campaign: Campaign) -> dict[str, int]:
    """Rows of ``campaign`` whose copied columns disagree with the row they copy, or
    point at a row that does not exist, by table. All zero in a sound database.

    A task belongs to the campaign through its criterion (the column with the database's
    foreign-key check), so a task whose own ``campaign`` column is wrong is still found.
    """
    tasks = Task.objects.filter(criterion__campaign=campaign)
    task_ids = tasks.values("pk")
    wrong_tasks = (
        tasks.exclude(campaign_id=campaign.pk)
        | tasks.exclude(item__campaign_id=campaign.pk)
        | tasks.exclude(Exists(Campaign.objects.filter(pk=OuterRef("campaign_id"))))
    )
    assignments = Assignment.objects.filter(task_id__in=task_ids)
    wrong_assignments = (
        assignments.exclude(item_id=F("task__item_id"), criterion_id=F("task__criterion_id"))
        | assignments.exclude(Exists(Item.objects.filter(pk=OuterRef("item_id"))))
        | assignments.exclude(Exists(Criterion.objects.filter(pk=OuterRef("criterion_id"))))
    )
    judgements = Judgement.objects.filter(assignment__task_id__in=task_ids)
    wrong_judgements = (
        judgements.exclude(
            task_id=F("assignment__task_id"),
            worker_id=F("assignment__worker_id"),
            criterion_id=F("assignment__criterion_id"),
        )
        | judgements.exclude(Exists(Task.objects.filter(pk=OuterRef("task_id"))))
        | judgements.exclude(Exists(Worker.objects.filter(pk=OuterRef("worker_id"))))
        | judgements.exclude(Exists(Criterion.objects.filter(pk=OuterRef("criterion_id"))))
    )
    scores = JudgementScore.objects.filter(judgement__assignment__task_id__in=task_ids)
    wrong_scores = scores.exclude(
        Exists(
            TaskOutput.objects.filter(
                task_id=OuterRef("judgement__task_id"),
                slot=OuterRef("slot"),
                role=OuterRef("role"),
                output_id=OuterRef("output_id"),
            )
        )
    ) | scores.exclude(Exists(Output.objects.filter(pk=OuterRef("output_id"))))
    return {
        "tasks": wrong_tasks.distinct().count(),
        "assignments": wrong_assignments.distinct().count(),
        "judgements": wrong_judgements.distinct().count(),
        "scores": wrong_scores.distinct().count(),
    }
