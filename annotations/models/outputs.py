"""What a campaign evaluates: systems, items (inputs) and each system's output per item."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from annotations.core.outputs import ITEM_ID_MAX, SYSTEM_LABEL_MAX
from annotations.models.campaigns import LANGUAGE_MAX, Campaign


class System(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="systems")
    label = models.CharField(max_length=SYSTEM_LABEL_MAX)
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
    external_id = models.CharField(max_length=ITEM_ID_MAX)
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
