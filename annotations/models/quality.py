"""The quality checks of a worker: attention checks, repeats, uniform scoring."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from annotations.models.assignment import Assignment
from annotations.models.workers import Worker


class WorkerCheck(models.Model):
    """The result of one quality check of a worker (attention check, repeat, uniform scoring).

    One row per checked assignment and kind. ``detail`` keeps what the decision was made
    from (the scores compared, the agreement), so an organizer can see why.
    """

    class Kind(models.TextChoices):
        ATTENTION = "attention", "Attention check"
        REPEAT = "repeat", "Repeated task (self-consistency)"
        UNIFORM = "uniform", "Uniform scoring"

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="checks")
    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="checks")
    kind = models.CharField(max_length=9, choices=Kind.choices)
    passed = models.BooleanField()
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["worker", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "kind"], name="worker_check_unique_assignment_kind"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["attention", "repeat", "uniform"]),
                name="worker_check_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} check of {self.worker}: {'passed' if self.passed else 'failed'}"
