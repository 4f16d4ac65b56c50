"""What GEM-style reports add to a campaign: automatic metric scores and the designer's
answers to the evaluation datasheet (HEDS) questions the platform cannot answer itself."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from annotations.models import Campaign, Output, System


class MetricScore(models.Model):
    """One automatic metric's score for one output (segment level) or, with no output,
    for one system as a whole (system level, e.g. a corpus BLEU)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="metric_scores")
    metric = models.CharField(max_length=100)
    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="metric_scores")
    output = models.ForeignKey(
        Output, on_delete=models.CASCADE, null=True, blank=True, related_name="metric_scores"
    )
    score = models.FloatField()

    class Meta:
        ordering = ["metric", "system_id", "output_id"]
        indexes = [models.Index(fields=["campaign", "metric"])]
        constraints = [
            models.UniqueConstraint(
                fields=["metric", "output"],
                condition=Q(output__isnull=False),
                name="metric_score_unique_output",
            ),
            models.UniqueConstraint(
                fields=["campaign", "metric", "system"],
                condition=Q(output__isnull=True),
                name="metric_score_unique_system",
            ),
        ]

    def __str__(self) -> str:
        where = f"output {self.output_id}" if self.output_id else f"system {self.system_id}"
        return f"{self.metric} = {self.score} ({where})"


class Datasheet(models.Model):
    """The designer's answers to the datasheet questions only a person can answer,
    keyed by question id; everything else is filled in from the campaign when shown."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="datasheet")
    answers = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"datasheet of {self.campaign}"
