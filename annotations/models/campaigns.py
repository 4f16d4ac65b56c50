"""A campaign: its settings, texts, codes, life cycle and languages."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q


def _code() -> str:
    return secrets.token_hex(4).upper()


def _english() -> list[str]:
    return ["en"]


#: a BCP 47 tag as stored (``core.languages.language_check`` normalises it)
LANGUAGE_MAX = 35


class Campaign(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        LIVE = "live", "Live"
        PAUSED = "paused", "Paused"
        CLOSED = "closed", "Closed"
        ARCHIVED = "archived", "Archived"

    class Setup(models.TextChoices):
        # The RankME study's set-ups (Novikova, Dusek and Rieser 2018).
        SEPARATE = "separate", "One criterion per task (set-up 2)"
        TOGETHER = "together", "All criteria of an item on one page (set-up 1)"

    class MinTimePolicy(models.TextChoices):
        WARN = "warn", "Warn the worker"
        REFUSE = "refuse", "Refuse the submission"

    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    instructions = models.TextField(blank=True)
    consent_text = models.TextField(blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.DRAFT)
    setup = models.CharField(
        max_length=8,
        choices=Setup.choices,
        default=Setup.SEPARATE,
        help_text="Whether a worker rates one criterion per task or all criteria at once.",
    )

    outputs_per_task = models.PositiveSmallIntegerField(default=5)
    judgements_per_task = models.PositiveSmallIntegerField(default=3)
    tasks_per_worker = models.PositiveIntegerField(
        default=10, help_text="At most this many tasks for one worker."
    )
    min_seconds_per_task = models.PositiveIntegerField(default=0)
    min_time_policy = models.CharField(
        max_length=8, choices=MinTimePolicy.choices, default=MinTimePolicy.WARN
    )
    assignment_timeout_minutes = models.PositiveIntegerField(default=30)
    merge_identical_outputs = models.BooleanField(
        default=True,
        help_text=(
            "Show identical outputs of one item once; the score then counts for each "
            "system that produced it."
        ),
    )
    task_seed = models.BigIntegerField(default=0, help_text="Seed of the task design.")

    # Quality control (rates are fractions of a worker's tasks).
    attention_check_rate = models.FloatField(default=0.0)
    repeat_rate = models.FloatField(default=0.0)
    quality_threshold = models.FloatField(
        default=0.5, help_text="Lowest attention-check pass rate a worker may have."
    )
    stop_failed_workers = models.BooleanField(default=False)

    # Adaptive design: after the built tasks, more tasks in batches, their
    # systems chosen where the clusters are undecided (``ranking.services.adaptive``).
    adaptive_design = models.BooleanField(
        default=False,
        help_text=(
            "When the built tasks run low, add tasks in batches, showing the systems "
            "whose ranks are still undecided more often (every system keeps a minimum)."
        ),
    )
    adaptive_batch_tasks = models.PositiveIntegerField(
        default=100, help_text="Tasks per criterion added in each adaptive batch."
    )

    # Entry platforms and completion.
    accept_prolific = models.BooleanField(default=True)
    accept_mturk = models.BooleanField(default=True)
    accept_link = models.BooleanField(default=True)
    completion_code = models.CharField(max_length=64, default=_code)
    failed_check_code = models.CharField(max_length=64, default=_code)
    screened_out_code = models.CharField(max_length=64, default=_code)
    # Languages (BCP 47, normalised by core.languages.language_check). The first is the
    # campaign's default: items imported without a language get it.
    languages = models.JSONField(
        default=_english, blank=True, help_text="BCP 47 codes of the outputs; first is default."
    )
    language_quotas = models.JSONField(
        default=dict, blank=True, help_text="Language -> most workers admitted in it."
    )
    translations = models.JSONField(
        default=dict,
        blank=True,
        help_text="Language -> {description, instructions, consent_text} in that language.",
    )

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_campaigns",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(outputs_per_task__gte=1), name="campaign_outputs_per_task_gte_1"
            ),
            models.CheckConstraint(
                condition=Q(judgements_per_task__gte=1), name="campaign_judgements_per_task_gte_1"
            ),
            models.CheckConstraint(
                condition=Q(tasks_per_worker__gte=1), name="campaign_tasks_per_worker_gte_1"
            ),
            models.CheckConstraint(
                condition=Q(assignment_timeout_minutes__gte=1),
                name="campaign_assignment_timeout_gte_1",
            ),
            models.CheckConstraint(
                condition=Q(attention_check_rate__gte=0) & Q(attention_check_rate__lte=1),
                name="campaign_attention_check_rate_0_1",
            ),
            models.CheckConstraint(
                condition=Q(repeat_rate__gte=0) & Q(repeat_rate__lte=1),
                name="campaign_repeat_rate_0_1",
            ),
            models.CheckConstraint(
                condition=Q(quality_threshold__gte=0) & Q(quality_threshold__lte=1),
                name="campaign_quality_threshold_0_1",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "live", "paused", "closed", "archived"]),
                name="campaign_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(setup__in=["separate", "together"]), name="campaign_setup_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name or self.slug

    @property
    def languages_or_default(self) -> list[str]:
        """The campaign's languages, its default first: English alone when none is stored.
        A new list each time (changing it changes nothing stored)."""
        return list(self.languages or _english())

    @property
    def default_language(self) -> str:
        """The campaign's default language: items imported without one get it."""
        return self.languages_or_default[0]

    @property
    def has_ended(self) -> bool:
        """Whether the campaign is closed or archived: no worker takes part any more."""
        return self.status in (self.Status.CLOSED, self.Status.ARCHIVED)

    @property
    def is_multilingual(self) -> bool:
        """Whether the campaign's outputs are in more than one language."""
        return len(self.languages or []) > 1
