"""An assignment: a task handed to a worker."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from annotations.models.criteria import Criterion
from annotations.models.outputs import Item
from annotations.models.tasks import Task
from annotations.models.workers import Worker


class Assignment(models.Model):
    """A task handed to a worker.

    ``item`` and ``criterion`` repeat the task's so that the database itself refuses to
    give a worker the same item under the same criterion twice (repeats for
    self-consistency and imported judgements are exempt).
    """

    class State(models.TextChoices):
        ACTIVE = "active", "Active"
        SUBMITTED = "submitted", "Submitted"
        EXPIRED = "expired", "Expired"

    class Kind(models.TextChoices):
        REGULAR = "regular", "Regular"
        REPEAT = "repeat", "Repeat (self-consistency)"
        IMPORTED = "imported", "Imported"

    # No index of their own: (worker, state) and (task, state) start with them (one index
    # less to maintain per hand-out and per imported judgement).
    worker = models.ForeignKey(
        Worker, on_delete=models.CASCADE, related_name="assignments", db_index=False
    )
    task = models.ForeignKey(
        Task, on_delete=models.CASCADE, related_name="assignments", db_index=False
    )
    # Copies of the task's (see COPIES in annotations/models/__init__.py): no foreign-key check of their own.
    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    criterion = models.ForeignKey(
        Criterion, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.REGULAR)
    state = models.CharField(max_length=9, choices=State.choices, default=State.ACTIVE)
    display_order = models.JSONField(default=list, blank=True, help_text="Slots in shown order.")
    draft = models.JSONField(
        default=dict, blank=True, help_text="Answers saved while the worker types (autosave)."
    )
    started_at = models.DateTimeField()
    expires_at = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at", "id"]
        indexes = [
            models.Index(fields=["task", "state"]),
            models.Index(fields=["worker", "state"]),
            models.Index(
                fields=["expires_at"], condition=Q(state="active"), name="assignment_active_expiry"
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["worker", "task"],
                condition=Q(kind="regular"),
                name="assignment_unique_worker_task",
            ),
            models.UniqueConstraint(
                fields=["worker", "criterion", "item"],
                condition=Q(kind="regular"),
                name="assignment_unique_worker_item",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["active", "submitted", "expired"]),
                name="assignment_state_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["regular", "repeat", "imported"]),
                name="assignment_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(submitted_at__isnull=True) | Q(state="submitted"),
                name="assignment_submitted_state",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.worker} on task {self.task_id} ({self.state})"
