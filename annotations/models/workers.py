"""A crowd worker in one campaign."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from annotations.core.outputs import WORKER_ID_MAX
from annotations.models.campaigns import LANGUAGE_MAX, Campaign
from annotations.models.criteria import Criterion


class PaymentReview(models.TextChoices):
    """The organizer's payment decision on a worker (``Worker.Review``), and the payment
    page's suggestion of one. Defined outside ``Worker`` so that its ``Meta`` can name it."""

    UNDECIDED = "", "Not reviewed"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class Worker(models.Model):
    """A crowd worker in one campaign. No IP addresses or locations are stored."""

    class Platform(models.TextChoices):
        PROLIFIC = "prolific", "Prolific"
        MTURK = "mturk", "Amazon Mechanical Turk"
        LINK = "link", "Plain link"
        IMPORTED = "imported", "Imported"

    Review = PaymentReview

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="workers")
    platform = models.CharField(max_length=8, choices=Platform.choices)
    external_id = models.CharField(max_length=WORKER_ID_MAX)
    metadata = models.JSONField(default=dict, blank=True)
    language = models.CharField(
        max_length=LANGUAGE_MAX, blank=True, help_text="The language the worker judges in."
    )
    criterion = models.ForeignKey(
        Criterion,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=(
            "Set-up 2 with several criteria: the one criterion this worker judges, chosen "
            "when they arrive (their instructions explain it alone). Empty: any."
        ),
    )
    consented_at = models.DateTimeField(null=True, blank=True)
    flagged = models.BooleanField(default=False)
    excluded = models.BooleanField(
        default=False, help_text="Judgements stay stored but leave rankings that exclude them."
    )
    stopped = models.BooleanField(default=False, help_text="Failed checks; no more tasks.")
    expert = models.BooleanField(
        default=False,
        help_text="An expert: their judgements are the reference crowd workers are compared with.",
    )
    exclusion_reason = models.TextField(blank=True)
    review = models.CharField(
        max_length=8,
        choices=Review.choices,
        blank=True,
        default=Review.UNDECIDED,
        help_text="The organizer's payment decision.",
    )
    bonus = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "platform", "external_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "platform", "external_id"], name="worker_unique_identity"
            ),
            models.CheckConstraint(
                condition=Q(platform__in=["prolific", "mturk", "link", "imported"]),
                name="worker_platform_valid",
            ),
            models.CheckConstraint(
                condition=Q(review__in=PaymentReview.values), name="worker_review_valid"
            ),
            models.CheckConstraint(condition=Q(bonus__gte=0), name="worker_bonus_nonnegative"),
        ]

    #: Where a record whose platform id was freed for its owner keeps the id
    #: (``services.workers.worker_release_identity``).
    RELEASED_ID_KEY = "released_external_id"

    def __str__(self) -> str:
        return f"{self.platform}:{self.external_id}"

    @property
    def released(self) -> bool:
        """Its platform id was freed for its owner: it holds no place, gets no task, may
        submit nothing and is paid nothing."""
        return self.RELEASED_ID_KEY in self.metadata
