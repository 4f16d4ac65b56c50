"""REST serializers of the crowd-against-experts report."""

from __future__ import annotations

import math
from typing import Any

from rest_framework import serializers

from common.serializers import KnownFieldsOnly


class EstimateSerializer(serializers.Serializer):
    value = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True, help_text="95% bootstrap interval, low end.")
    high = serializers.FloatField(allow_null=True, help_text="95% bootstrap interval, high end.")
    n = serializers.IntegerField(help_text="Outputs (alpha) or systems (correlations).")
    reason = serializers.CharField(help_text="Why the value is undefined (else empty).")
    interval_reason = serializers.CharField(
        help_text="Why the interval is undefined while the value is not (else empty)."
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        def finite(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {
            "value": finite(instance.value),
            "low": finite(instance.low),
            "high": finite(instance.high),
            "n": instance.n,
            "reason": instance.reason,
            "interval_reason": instance.interval_reason,
        }


class WorkerVersusExpertsSerializer(serializers.Serializer):
    worker = serializers.CharField(source="worker.external_id")
    worker_id = serializers.IntegerField(source="worker.pk")
    excluded = serializers.BooleanField(source="worker.excluded")
    alpha = EstimateSerializer(
        help_text="Krippendorff's alpha (interval) between the worker and the experts' "
        "consensus (the experts' mean score on each output), on the outputs both judged: "
        "two coders, so the experts' agreement among themselves does not enter."
    )


class ExpertReportSerializer(serializers.Serializer):
    criterion = serializers.CharField(source="criterion.name")
    experts = serializers.IntegerField()
    workers = WorkerVersusExpertsSerializer(many=True)
    alpha_meaning = serializers.CharField(help_text="What each worker's alpha is.")
    spearman = EstimateSerializer(source="ranking.spearman")
    kendall_tau_b = EstimateSerializer(source="ranking.kendall")
    excluded = serializers.IntegerField(
        help_text="Excluded crowd workers: left out of spearman and kendall_tau_b."
    )
    spearman_with_excluded = EstimateSerializer(
        source="ranking_with_excluded.spearman", allow_null=True, default=None
    )
    kendall_tau_b_with_excluded = EstimateSerializer(
        source="ranking_with_excluded.kendall", allow_null=True, default=None
    )


class ExpertExcludeSerializer(KnownFieldsOnly):
    criterion = serializers.CharField(max_length=100)
    threshold = serializers.FloatField(min_value=-1.0, max_value=1.0)
    min_units = serializers.IntegerField(min_value=1, default=10)
