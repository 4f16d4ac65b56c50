"""Ranking runs: a method applied to a criterion's judgements, and its result per system."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from annotations.models import Campaign, Criterion, System


class RankingRun(models.Model):
    """One ranking of a criterion's systems.

    The seed, the parameters and the fingerprint of the judgements used are stored so
    that a run can be reproduced exactly.
    """

    class Method(models.TextChoices):
        WMT14 = "wmt14", "TrueSkill, WMT14 procedure (E2E report)"
        BOOTSTRAP = "bootstrap", "TrueSkill over bootstrap resamples"
        BRADLEY_TERRY = "bradley_terry", "Bradley-Terry with bootstrap intervals"
        EXPECTED_WINS = "expected_wins", "Expected wins with bootstrap ranges"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    #: a run in one of these states is not computing and never will again by itself
    ENDED = (Status.DONE, Status.FAILED, Status.CANCELLED)
    #: a run in one of these states counts against its designer's concurrent-run cap
    ACTIVE = (Status.PENDING, Status.RUNNING)

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ranking_runs")
    criterion = models.ForeignKey(Criterion, on_delete=models.CASCADE, related_name="ranking_runs")
    method = models.CharField(max_length=16, choices=Method.choices, default=Method.WMT14)
    runs = models.PositiveIntegerField(default=200)
    confidence = models.FloatField(default=0.95)
    seed = models.BigIntegerField(default=1)
    parameters = models.JSONField(default=dict, blank=True)
    where = models.JSONField(
        default=dict,
        blank=True,
        help_text="The slice ranked: item attribute (or 'language') -> value, every one "
        "met (annotations.core.slices); empty: every item.",
    )
    exclude_flagged = models.BooleanField(
        default=True, help_text="Leave out judgements of excluded workers."
    )
    chunk_runs = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Runs per chunk: the run is computed as chunks of this many runs, each a "
        "Celery task with its own random stream. Empty for runs created before "
        "chunking, which are computed as one stream, as they were.",
    )
    fingerprint = models.CharField(max_length=64, blank=True)
    n_judgements = models.PositiveIntegerField(default=0)
    n_comparisons = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PENDING)
    progress = models.FloatField(default=0.0)
    runs_done = models.PositiveIntegerField(
        default=0, help_text="Runs (or bootstrap replicates) computed so far, of ``runs``."
    )
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Last sign of life of the computation; the sweep fails runs whose "
        "heartbeat is older than RANKING_STALE_AFTER seconds.",
    )
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="Times a worker started computing this run (redeliveries count)."
    )
    inputs = models.JSONField(
        default=dict,
        blank=True,
        help_text="Which judgements the run used and left out (counts, excluded workers), "
        "and the systems it could not rank.",
    )
    error = models.TextField(blank=True)
    stability = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="run_status_heartbeat")]
        constraints = [
            models.CheckConstraint(
                condition=Q(progress__gte=0) & Q(progress__lte=1), name="run_progress_0_1"
            ),
            models.CheckConstraint(
                condition=Q(confidence__gt=0) & Q(confidence__lt=1), name="run_confidence_0_1"
            ),
            models.CheckConstraint(condition=Q(runs__gte=1), name="run_runs_gte_1"),
            models.CheckConstraint(
                condition=Q(runs_done__lte=F("runs")), name="run_runs_done_lte_runs"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "running", "done", "failed", "cancelled"]),
                name="run_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.method} of {self.criterion} (seed {self.seed})"

    @property
    def slice_label(self) -> str:
        """The slice ranked, for people: ``language=de`` or ``all items``."""
        from annotations.core.slices import describe

        return describe(self.where or {})


class RankingChunk(models.Model):
    """One chunk of a chunked ranking run: its state and, once done, its per-run values.

    ``result`` holds :meth:`ranking.stats.ChunkResult.to_bytes` (no result backend
    needed); the task that stores the last chunk merges them and finishes the run.
    """

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"

    run = models.ForeignKey(RankingRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    runs = models.PositiveIntegerField()
    state = models.CharField(max_length=7, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="Times a worker started computing this chunk."
    )
    dispatches = models.PositiveSmallIntegerField(
        default=0, help_text="Times the chunk was handed to Celery (the sweep re-dispatches)."
    )
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    fingerprint = models.CharField(max_length=64, blank=True)
    result = models.BinaryField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="chunk_unique_index"),
            models.CheckConstraint(condition=Q(runs__gte=1), name="chunk_runs_gte_1"),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "running", "done"]), name="chunk_state_valid"
            ),
        ]
        indexes = [models.Index(fields=["state", "heartbeat_at"], name="chunk_state_heartbeat")]

    def __str__(self) -> str:
        return f"chunk {self.index} of run {self.run_id} ({self.state})"


class RankingResult(models.Model):
    """A system's place in a ranking run."""

    run = models.ForeignKey(RankingRun, on_delete=models.CASCADE, related_name="results")
    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="+")
    value = models.FloatField()
    spread = models.FloatField(default=0.0)
    rank_lo = models.PositiveIntegerField()
    rank_hi = models.PositiveIntegerField()
    cluster = models.PositiveIntegerField()
    comparisons = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["run", "-value"]
        constraints = [
            models.UniqueConstraint(fields=["run", "system"], name="result_unique_system"),
            models.CheckConstraint(condition=Q(rank_lo__gte=1), name="result_rank_lo_gte_1"),
            models.CheckConstraint(
                condition=Q(rank_hi__gte=F("rank_lo")), name="result_rank_range_ordered"
            ),
            models.CheckConstraint(condition=Q(cluster__gte=1), name="result_cluster_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.system}: ranks {self.rank_lo}-{self.rank_hi}, cluster {self.cluster}"


class AdaptiveBatch(models.Model):
    """One batch of tasks an adaptive campaign added for a criterion, and why.

    Everything the decision read and did is kept: the refit's seed, method and runs, the
    judgements it saw, each system's state (value, sigma, rank range, cluster), the
    contested gaps and quotas, the tasks added. The same judgements, seed and settings
    give the same batch (``ranking.services.adaptive``).
    """

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="adaptive_batches"
    )
    criterion = models.ForeignKey(
        Criterion, on_delete=models.CASCADE, related_name="adaptive_batches"
    )
    number = models.PositiveIntegerField(help_text="1, 2, ... per criterion.")
    created_at = models.DateTimeField(auto_now_add=True)
    seed = models.JSONField(
        default=list, help_text="The generator's seed: [task seed, criterion id, number]."
    )
    method = models.CharField(max_length=16, default="wmt14")
    runs = models.PositiveIntegerField(default=64)
    judgements = models.PositiveIntegerField(help_text="Judgements the refit saw.")
    fingerprint = models.CharField(max_length=64, blank=True)
    state = models.JSONField(
        default=list,
        help_text="Per system: label, value, sigma, rank_lo, rank_hi, cluster (empty "
        "values before any judgement).",
    )
    decision = models.JSONField(default=dict, help_text="Contested gaps, quotas, reasons.")
    tasks = models.PositiveIntegerField(default=0, help_text="Tasks added.")
    first_task_number = models.PositiveIntegerField(default=0)
    stable = models.BooleanField(
        default=False,
        help_text="The clusters equal those of the refits before (the stop rule).",
    )
    trigger = models.CharField(max_length=16, default="auto", help_text="auto or manual.")

    class Meta:
        ordering = ["criterion", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["criterion", "number"], name="adaptive_batch_unique_number"
            )
        ]

    def __str__(self) -> str:
        return f"adaptive batch {self.number} of {self.criterion}"
