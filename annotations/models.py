"""The domain of a human-evaluation campaign.

A campaign has systems, items (inputs), one output per system per item and criteria.
A task shows a worker k outputs of one item under one criterion; an assignment hands a
task to a worker; a judgement holds the worker's raw score for every output of the task
and the ranks derived from them.

Rules that must never break are database constraints, not only code: one output per
system and item, one judgement per assignment, a worker never holds the same task twice,
scores are never negative, and so on. Business logic lives in the ``annotations.services`` package (writes, one module per
entity) and reads in ``annotations.selectors``.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q


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


class CampaignMembership(models.Model):
    """A user's role in a campaign (the owner also has a row)."""

    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        DESIGNER = "designer", "Editor"
        VIEWER = "viewer", "Viewer"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_memberships"
    )
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.VIEWER)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_unique"),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "designer", "viewer"]), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.campaign}"


class Criterion(models.Model):
    """What workers are asked about an output, and on which scale.

    ``scale_settings`` holds the scale's options: for ``magnitude`` the standard
    (default 100) and the largest number of digits (default 6); for ``likert`` the
    ``levels``, a list of ``{"value": int, "label": str, "descriptor": str}``.

    A magnitude criterion relates every score to its *standard* (RankME's modulus): an
    input and an output text shown on every task with the value ``standard``
    (``standard_output`` records the uploaded output it was copied from, if any).
    ``content_checks`` lists the per-output checklist shown under each output (RankME's
    quality and informativeness set-ups), e.g. ``["added", "missing", "perfect"]``.
    """

    class Scale(models.TextChoices):
        MAGNITUDE = "magnitude", "Magnitude estimation (RankME)"
        SLIDER = "slider", "Continuous slider (0-100, unlabeled)"
        LIKERT = "likert", "Likert levels with descriptors"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="criteria")
    name = models.SlugField(max_length=64)
    question = models.TextField()
    show_input = models.BooleanField(default=True)
    scale = models.CharField(max_length=10, choices=Scale.choices, default=Scale.MAGNITUDE)
    scale_settings = models.JSONField(default=dict, blank=True)
    position = models.PositiveSmallIntegerField(default=0)
    standard_input = models.TextField(blank=True)
    standard_text = models.TextField(blank=True)
    standard_output = models.ForeignKey(
        "Output", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    content_checks = models.JSONField(default=list, blank=True)
    translations = models.JSONField(
        default=dict,
        blank=True,
        help_text="Language -> {question, levels (Likert descriptors), standard_text}.",
    )

    class Meta:
        ordering = ["campaign", "position", "name"]
        verbose_name_plural = "criteria"
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="criterion_unique_name"),
            models.CheckConstraint(
                condition=Q(scale__in=["magnitude", "slider", "likert"]),
                name="criterion_scale_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign.slug}/{self.name}"

    @property
    def standard(self) -> int:
        return int(self.scale_settings.get("standard", 100))

    @property
    def likert_levels(self) -> list[dict[str, Any]]:
        return list(self.scale_settings.get("levels", []))


class System(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="systems")
    label = models.CharField(max_length=100)
    name = models.CharField(max_length=200, blank=True)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["campaign", "label"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "label"], name="system_unique_label"),
        ]

    def __str__(self) -> str:
        return self.label


class Item(models.Model):
    """One input (e.g. an E2E meaning representation).

    ``attributes`` are the item's named properties from import (e.g. GEM's
    ``challenge_set``, ``perturbation``, ``length_bucket``, ``domain``): name -> text,
    names as ``core.slices.ATTRIBUTE_NAME``. Results can be computed on a slice of the
    items that share a value (``selectors.judgements.slice_q``).
    """

    # No index of its own: item_unique_external_id starts with it.
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="items", db_index=False
    )
    external_id = models.CharField(max_length=200)
    input = models.TextField()
    position = models.PositiveIntegerField(default=0)
    attributes = models.JSONField(default=dict, blank=True)
    language = models.CharField(max_length=LANGUAGE_MAX, default="en")

    class Meta:
        ordering = ["campaign", "position", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "external_id"], name="item_unique_external_id"
            ),
        ]

    def __str__(self) -> str:
        return self.external_id


class Output(models.Model):
    """A system's output for an item.

    ``canonical`` points to the first output of the same item with identical text
    (null when this output is itself the first); set by ``outputs_detect_identical``.
    """

    # No index of its own: output_unique_item_system starts with it.
    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="outputs", db_index=False)
    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="outputs")
    text = models.TextField()
    language = models.CharField(max_length=LANGUAGE_MAX, default="en")
    canonical = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="twins"
    )

    class Meta:
        ordering = ["item", "system"]
        constraints = [
            models.UniqueConstraint(fields=["item", "system"], name="output_unique_item_system"),
            models.CheckConstraint(
                condition=~Q(canonical=F("id")), name="output_canonical_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.system.label} on {self.item.external_id}"


class Task(models.Model):
    """k outputs of one item to be judged under one criterion."""

    class Kind(models.TextChoices):
        REGULAR = "regular", "Regular"
        ATTENTION = "attention", "Attention check"
        IMPORTED = "imported", "Imported (finished campaign)"

    # No index of its own: (campaign, criterion, kind) and task_handout start with it.
    # A copy of the criterion's campaign (and the item's), kept for the hand-out's index:
    # no foreign-key check of its own in the database (see COPIES below the models).
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
    external_id = models.CharField(max_length=100, blank=True, help_text="e.g. a CrowdFlower unit")
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
            models.Index(fields=["campaign", "criterion", "kind"]),
            # The hand-out walks one level of places held from a worker's own start.
            models.Index(fields=["campaign", "kind", "places_held", "id"], name="task_handout"),
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


class Worker(models.Model):
    """A crowd worker in one campaign. No IP addresses or locations are stored."""

    class Platform(models.TextChoices):
        PROLIFIC = "prolific", "Prolific"
        MTURK = "mturk", "Amazon Mechanical Turk"
        LINK = "link", "Plain link"
        IMPORTED = "imported", "Imported"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="workers")
    platform = models.CharField(max_length=8, choices=Platform.choices)
    external_id = models.CharField(max_length=200)
    metadata = models.JSONField(default=dict, blank=True)
    language = models.CharField(
        max_length=LANGUAGE_MAX, blank=True, help_text="The language the worker judges in."
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
        choices=[("", "Not reviewed"), ("approved", "Approved"), ("rejected", "Rejected")],
        blank=True,
        default="",
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
                condition=Q(review__in=["", "approved", "rejected"]), name="worker_review_valid"
            ),
            models.CheckConstraint(condition=Q(bonus__gte=0), name="worker_bonus_nonnegative"),
        ]

    def __str__(self) -> str:
        return f"{self.platform}:{self.external_id}"


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
    # Copies of the task's (see COPIES below the models): no foreign-key check of their own.
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


class Judgement(models.Model):
    """A worker's scores for every output of a task. One per assignment (idempotent)."""

    assignment = models.OneToOneField(
        Assignment, on_delete=models.CASCADE, related_name="judgement"
    )
    # Copies of the assignment's (see COPIES below the models): no foreign-key check of
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
    # A copy of the output in the task's slot (see COPIES below the models): no
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


# COPIES. Some columns repeat what another row already says, so that hot reads and the
# database's uniqueness rules need no join:
#   Task.campaign                              = Task.criterion.campaign = Task.item.campaign
#   Assignment.item, Assignment.criterion      = its task's
#   Judgement.task, .worker, .criterion        = its assignment's
#   JudgementScore.output                      = an output of the judgement's task at the
#                                                score's slot and role
# The column a copy is taken from keeps its foreign-key check in the database; the copies
# have none (db_constraint=False). PostgreSQL checks each foreign key of each new row at
# commit, about 3 microseconds a check: a 100,000-row WMT import writes 1.1 million copies
# (the target for that import is under 15 s). Every writer sets a copy from the row it
# copies, in the same transaction; Django still deletes along every copy (on_delete); and
# annotations.selectors.integrity.copies_disagreeing counts copies that disagree or point
# nowhere (tested after every writer, and checked by the load benchmark after each run).


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


class CampaignInvitation(models.Model):
    """An emailed link that makes its acceptor a member of a campaign with a role."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(
        max_length=8,
        choices=CampaignMembership.Role.choices,
        default=CampaignMembership.Role.DESIGNER,
    )
    token = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=["owner", "designer", "viewer"]), name="invitation_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"invitation of {self.email} to {self.campaign.slug} as {self.role}"


class RatingMapping(models.Model):
    """A column mapping for rating imports saved under a name in a campaign (a preset of
    its own, next to the built-in ones); ``mapping`` is its JSON form
    (``annotations.importing.parsers.mapped.mapping``)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rating_mappings")
    name = models.SlugField(max_length=64)
    mapping = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="rating_mapping_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign.slug}/{self.name}"
