"""REST serializer of the MTG-style table's query."""

from __future__ import annotations

from rest_framework import serializers


class MeansQuery(serializers.Serializer):
    criterion = serializers.CharField(required=False, max_length=64)
    confidence = serializers.FloatField(min_value=0.5, max_value=0.999, default=0.95)
