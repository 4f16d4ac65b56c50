"""REST serializers of adaptive design: a batch request, a batch, and each criterion's
status (open places, batches, the stop rule)."""

from __future__ import annotations

from datetime import datetime

from rest_framework import serializers

from common.serializers import KnownFieldsOnly
from ranking.models import AdaptiveBatch


class AdaptiveBatchRequest(KnownFieldsOnly):
    criterion = serializers.CharField(max_length=64)
    after = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=1_000_000,
        help_text="The number of the criterion's latest batch you saw (0 before the first): "
        "when another batch has been added since, nothing is added and the answer is 409. "
        "Send it to make a retried POST add one batch, not two.",
    )


class IsoDateTimeField(serializers.DateTimeField):
    """The time as ``datetime.isoformat()`` writes it (``+00:00``, not DRF's ``Z``): the
    API's answer as it has always been."""

    def to_representation(self, value: datetime) -> str:
        return value.isoformat()


class AdaptiveBatchSerializer(serializers.ModelSerializer):
    """One batch: what its refit read and what it added."""

    created_at = IsoDateTimeField(read_only=True)

    class Meta:
        model = AdaptiveBatch
        fields = [
            "number",
            "created_at",
            "trigger",
            "seed",
            "method",
            "runs",
            "judgements",
            "fingerprint",
            "tasks",
            "first_task_number",
            "stable",
            "state",
            "decision",
        ]
        read_only_fields = fields


class AdaptiveCriterionSerializer(serializers.Serializer):
    """A criterion's status (``ranking.selectors.adaptive.AdaptiveStatus``)."""

    criterion = serializers.CharField()
    open_places = serializers.IntegerField()
    stable = serializers.BooleanField(help_text="The latest batch met the stop rule.")
    batches = AdaptiveBatchSerializer(many=True, help_text="Newest first.")


class AdaptiveStatusSerializer(serializers.Serializer):
    adaptive_design = serializers.BooleanField()
    batch_tasks = serializers.IntegerField()
    problem = serializers.CharField(
        allow_null=True, help_text="Why the campaign cannot get a batch now; null when it can."
    )
    stable_refits = serializers.IntegerField()
    stable_span = serializers.IntegerField(
        help_text="Judgements the clusters must also have held over to be stable."
    )
    criteria = AdaptiveCriterionSerializer(many=True)
