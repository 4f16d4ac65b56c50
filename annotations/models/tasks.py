"""Tasks: k outputs of one item under one criterion, each output at a display slot."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from annotations.core.outputs import UNIT_ID_MAX
from annotations.models.campaigns import LANGUAGE_MAX, Campaign
from annotations.models.criteria import Criterion
from annotations.models.outputs import Item, Output


class Task(models.Model):
    """k outputs of one item to be judged under one criterion."""

    class Kind(models.TextChoices):
        REGULAR = "regular", "Regular"
        ATTENTION = "attention", "Attention check"
        IMPORTED = "imported", "Imported (finished campaign)"

    # No index of its own: task_handout and task_handout_criterion start with it.
    # A copy of the criterion's campaign (and the item's), kept for the hand-out's index:
    # no foreign-key check of its own in the database (see COPIES in annotations/models/__init__.py).
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="tasks",
        db_index=False,
        db_constraint=False,
    )
    criterion = models.ForeignKey(Criterion, on_delete=models.CASCADE, related_name="tasks")
    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="tasks")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.REGULAR)
    number = models.PositiveIntegerField(default=0, help_text="Order within the design.")
    external_id = models.CharField(
        max_length=UNIT_ID_MAX, blank=True, help_text="e.g. a CrowdFlower unit"
    )
    language = models.CharField(
        max_length=LANGUAGE_MAX, default="en", help_text="Its outputs' language (never mixed)."
    )
    group = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Tasks of one item shown together on one page (set-up 1) share a group.",
    )
    places_held = models.PositiveIntegerField(
        default=0,
        help_text="Regular assignments active (even overdue) or submitted: a hand-out hint "
        "kept by annotations.services.assignment; places are counted again under a lock.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "criterion", "number", "id"]
        indexes = [
            # The hand-out walks one level of places held from a worker's own start; a
            # worker given one criterion (set-up 2 with several, set-up 1's lead) walks
            # that criterion's tasks: without it in the index, PostgreSQL read and sorted
            # every task of the level (about 4 ms a read at 6,300 tasks, two reads a
            # hand-out) where it now reads the window's 64 rows in order.
            models.Index(fields=["campaign", "kind", "places_held", "id"], name="task_handout"),
            models.Index(
                fields=["campaign", "criterion", "kind", "places_held", "id"],
                name="task_handout_criterion",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["criterion", "external_id"],
                condition=~Q(external_id=""),
                name="task_unique_external_id",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["regular", "attention", "imported"]),
                name="task_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"task {self.pk} ({self.criterion.name}, {self.item.external_id})"


class TaskOutput(models.Model):
    """An output in a task, at a display slot.

    Merged identical outputs share a slot: the worker sees the text once and the score
    counts for every output in the slot. An attention check's degraded copy has
    ``role=degraded``, the original output it was made from, and its own ``text``.
    """

    class Role(models.TextChoices):
        REGULAR = "regular", "Regular"
        DEGRADED = "degraded", "Degraded copy (attention check)"

    # No index of its own: task_output_unique starts with it.
    task = models.ForeignKey(
        Task, on_delete=models.CASCADE, related_name="task_outputs", db_index=False
    )
    output = models.ForeignKey(Output, on_delete=models.CASCADE, related_name="task_outputs")
    slot = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.REGULAR)
    text = models.TextField(blank=True, help_text="Shown instead of the output's text if set.")

    class Meta:
        ordering = ["task", "slot", "id"]
        constraints = [
            # An output once per task and role: a regular output may have its one
            # degraded copy beside it (an attention check).
            models.UniqueConstraint(fields=["task", "role", "output"], name="task_output_unique"),
            models.CheckConstraint(
                condition=Q(role__in=["regular", "degraded"]), name="task_output_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"slot {self.slot} of task {self.task_id}: output {self.output_id} ({self.role})"

    @property
    def shown_text(self) -> str:
        return self.text or self.output.text
