"""REST serializers of workers."""

from __future__ import annotations

from rest_framework import serializers

from annotations.models import (
    Worker,
)
from common.serializers import ApiModelSerializer, KnownFieldsOnly


class WorkerQuerySerializer(serializers.Serializer):
    flagged = serializers.BooleanField(required=False, allow_null=True, default=None)
    excluded = serializers.BooleanField(required=False, allow_null=True, default=None)
    platform = serializers.ChoiceField(choices=Worker.Platform.values, required=False)


class WorkerSerializer(ApiModelSerializer):
    reason = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        help_text='Why the worker is excluded: required with `"excluded": true` (kept while '
        "they stay excluded; cleared when they are included again).",
    )

    class Meta:
        model = Worker
        fields = [
            "id",
            "platform",
            "external_id",
            "flagged",
            "excluded",
            "expert",
            "exclusion_reason",
            "reason",
            "stopped",
            "consented_at",
            "created_at",
            "last_seen_at",
        ]
        read_only_fields = [
            f for f in fields if f not in ("flagged", "excluded", "expert", "reason")
        ]


class WorkerReleaseSerializer(KnownFieldsOnly):
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=500,
        help_text="Why the record is excluded: required unless it is excluded already.",
    )
    owner_session = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=200,
        help_text="The owner's Prolific submission id (SESSION_ID) or MTurk assignment id: "
        "the id is then kept for that platform session.",
    )


class WorkerQualitySerializer(serializers.Serializer):
    worker = WorkerSerializer()
    tasks_done = serializers.IntegerField(
        help_text="Counted judgements (real tasks, first answer)."
    )
    pages = serializers.IntegerField(
        help_text="Pages submitted: the unit of tasks_per_worker (set-up 1: one item, every criterion)."
    )
    counted_pages = serializers.IntegerField()
    attention_pages = serializers.IntegerField()
    repeat_pages = serializers.IntegerField()
    median_seconds = serializers.FloatField(allow_null=True)
    attention_checks = serializers.IntegerField()
    attention_pass_rate = serializers.FloatField(allow_null=True)
    self_consistency = serializers.FloatField(allow_null=True)
    uniform_rate = serializers.FloatField(allow_null=True)
    agreement = serializers.FloatField(allow_null=True)
    below_quality_threshold = serializers.BooleanField(source="quality.below")
    quality_reason = serializers.CharField(source="quality.reason")
