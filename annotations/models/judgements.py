"""A worker's judgement of a task: the scores of its outputs and their ranks."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from annotations.models.assignment import Assignment
from annotations.models.criteria import Criterion
from annotations.models.outputs import Output
from annotations.models.tasks import Task, TaskOutput
from annotations.models.workers import Worker


class Judgement(models.Model):
    """A worker's scores for every output of a task. One per assignment (idempotent)."""

    assignment = models.OneToOneField(
        Assignment, on_delete=models.CASCADE, related_name="judgement"
    )
    # Copies of the assignment's (see COPIES in annotations/models/__init__.py): no foreign-key check of
    # their own.
    task = models.ForeignKey(
        Task, on_delete=models.CASCADE, related_name="judgements", db_constraint=False
    )
    worker = models.ForeignKey(
        Worker, on_delete=models.CASCADE, related_name="judgements", db_constraint=False
    )
    # No index of its own: (criterion, submitted_at) starts with it.
    criterion = models.ForeignKey(
        Criterion,
        on_delete=models.CASCADE,
        related_name="judgements",
        db_index=False,
        db_constraint=False,
    )
    started_at = models.DateTimeField()
    submitted_at = models.DateTimeField()
    seconds_on_task = models.FloatField()
    too_fast = models.BooleanField(default=False)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["submitted_at", "id"]
        indexes = [models.Index(fields=["criterion", "submitted_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(seconds_on_task__gte=0), name="judgement_seconds_nonnegative"
            ),
            models.CheckConstraint(
                condition=Q(submitted_at__gte=F("started_at")), name="judgement_submitted_after"
            ),
        ]

    def __str__(self) -> str:
        return f"judgement {self.pk} by {self.worker} on task {self.task_id}"


class JudgementScore(models.Model):
    """The raw score one output received in a judgement, and its derived rank.

    ``rank`` is 1 for the best; equal scores share the best rank of their group.
    ``coverage`` keeps the worker's input-coverage label where one was collected
    (E2E: ok, missing, added, or both).
    """

    # No index of its own: judgement_score_unique starts with it.
    judgement = models.ForeignKey(
        Judgement, on_delete=models.CASCADE, related_name="scores", db_index=False
    )
    # A copy of the output in the task's slot (see COPIES in annotations/models/__init__.py): no
    # foreign-key check of its own.
    output = models.ForeignKey(
        Output, on_delete=models.CASCADE, related_name="scores", db_constraint=False
    )
    slot = models.PositiveSmallIntegerField()
    role = models.CharField(
        max_length=8, choices=TaskOutput.Role.choices, default=TaskOutput.Role.REGULAR
    )
    score = models.FloatField()
    rank = models.FloatField()
    coverage = models.CharField(max_length=32, blank=True)
    checks = models.JSONField(
        default=list, blank=True, help_text="Content checks the worker ticked for this output."
    )

    class Meta:
        ordering = ["judgement", "slot", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["judgement", "role", "output"], name="judgement_score_unique"
            ),
            models.CheckConstraint(condition=Q(score__gte=0), name="judgement_score_nonnegative"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="judgement_score_rank_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.score:g} (rank {self.rank:g}) for output {self.output_id}"
