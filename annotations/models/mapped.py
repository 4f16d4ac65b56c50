"""Column mappings of rating imports saved in a campaign."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from annotations.models.campaigns import Campaign


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
