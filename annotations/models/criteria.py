"""A campaign's criteria: what workers are asked about an output, on which scale."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q

from annotations.models.campaigns import Campaign


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

    #: A magnitude criterion's settings when none are given (RankME's modulus 100, and
    #: scores of at most six digits), defined once: the criteria service writes them
    #: (``annotations.services.criteria.magnitude_settings``), everything else reads them.
    MAGNITUDE_STANDARD = 100
    MAGNITUDE_MAX_DIGITS = 6

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
    example = models.TextField(
        blank=True,
        help_text=(
            "The worked example on the workers' instructions (Markdown). Empty: one "
            "generated from the standard (magnitude criteria)."
        ),
    )
    translations = models.JSONField(
        default=dict,
        blank=True,
        help_text="Language -> {question, levels (Likert descriptors), standard_text, example}.",
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
        return int(self.scale_settings.get("standard", self.MAGNITUDE_STANDARD))

    @property
    def likert_levels(self) -> list[dict[str, Any]]:
        return list(self.scale_settings.get("levels", []))

    #: ``scale_settings["source"]`` of ranks stored as scores, ``k + 1 - rank`` (a WMT
    #: relative ranking: ``import_wmt``, or a mapping whose criterion has ``ranks``)
    RANKS_SOURCE = "wmt-ranking"

    @property
    def of_ranks(self) -> bool:
        """Whether the scores are ranks of the outputs shown together (not ratings)."""
        return bool(self.scale_settings.get("source") == self.RANKS_SOURCE)
