"""REST serializers of metric-human correlation: the report's query, the upload and what
it stored."""

from __future__ import annotations

from rest_framework import serializers

from common.serializers import KnownFieldsOnly
from reports.selectors.metrics import HUMAN_SOURCES


class CorrelationQuery(serializers.Serializer):
    criterion = serializers.CharField()
    resamples = serializers.IntegerField(min_value=1, max_value=2000, default=200)
    seed = serializers.IntegerField(min_value=0, default=1)
    confidence = serializers.FloatField(min_value=0.5, max_value=0.999, default=0.95)
    human = serializers.ChoiceField(choices=HUMAN_SOURCES, default="mean")


class MetricUploadSerializer(KnownFieldsOnly):
    file = serializers.FileField(max_length=200, allow_empty_file=True)


class MetricCountSerializer(serializers.Serializer):
    """One metric an upload stored (``reports.services.metrics.MetricCount``)."""

    metric = serializers.CharField()
    segment_scores = serializers.IntegerField()
    system_scores = serializers.IntegerField()


class MetricImportSerializer(serializers.Serializer):
    """What an upload stored (``reports.services.metrics.MetricImport``)."""

    metrics = MetricCountSerializer(many=True)
    replaced = serializers.IntegerField(help_text="Stored scores of these metrics replaced.")
