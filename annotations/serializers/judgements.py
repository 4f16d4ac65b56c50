"""REST serializers of judgements (the export's query is ``annotations/serializers/exports.py``)."""

from __future__ import annotations

from rest_framework import serializers

from annotations.models import Judgement, JudgementScore
from annotations.selectors.judgements import score_counts
from common.serializers import ApiModelSerializer


class JudgementQuerySerializer(serializers.Serializer):
    criterion = serializers.CharField(required=False, max_length=100)
    worker = serializers.CharField(required=False, max_length=200)
    submitted_after = serializers.DateTimeField(
        required=False,
        error_messages={"invalid": "Not an ISO 8601 date and time (e.g. 2025-01-31T12:00Z)."},
    )


class JudgementScoreSerializer(ApiModelSerializer):
    system = serializers.CharField(source="output.system.label")
    item = serializers.CharField(source="output.item.external_id")

    class Meta:
        model = JudgementScore
        fields = ["output", "system", "item", "slot", "score", "rank", "coverage"]


class JudgementSerializer(ApiModelSerializer):
    criterion = serializers.CharField(source="criterion.name")
    worker = serializers.CharField(source="worker.external_id")
    platform = serializers.CharField(source="worker.platform")
    scores = serializers.SerializerMethodField()

    class Meta:
        model = Judgement
        fields = [
            "id",
            "task",
            "criterion",
            "worker",
            "platform",
            "started_at",
            "submitted_at",
            "seconds_on_task",
            "too_fast",
            "scores",
        ]

    def get_scores(self, obj: Judgement) -> list[dict]:
        regular = [s for s in obj.scores.all() if score_counts(role=s.role)]
        return JudgementScoreSerializer(regular, many=True).data  # type: ignore[return-value]
