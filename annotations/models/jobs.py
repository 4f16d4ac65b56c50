"""Imports run in the background, with their progress."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from annotations.models.campaigns import Campaign


class ImportJob(models.Model):
    """An upload imported in the background (a Celery job), with its progress.

    The uploaded bytes are kept in the database so that a worker on another machine can
    read them; they are dropped once the job has ended.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    #: a job in one of these states is not over: its page polls, and a new build job of
    #: the campaign is this one
    ACTIVE = (Status.PENDING, Status.RUNNING)

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="import_jobs")
    kind = models.CharField(max_length=16, help_text="The importer: outputs, e2e, wmt, ...")
    filename = models.CharField(max_length=255)
    data = models.BinaryField(blank=True)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    rows_done = models.PositiveIntegerField(default=0)
    rows_total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    summary = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Running: the worker's last sign of life (PostgreSQL; the sweep hands a "
        "job silent for IMPORT_JOB_LOST_AFTER seconds out again). Pending: when it was last "
        "sent to Celery.",
    )
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="Times a worker started this job (IMPORT_JOB_MAX_ATTEMPTS at most)."
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "running", "done", "failed"]),
                name="import_job_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"import of {self.filename} into {self.campaign.slug} ({self.status})"
