"""REST serializer of an adaptive batch request."""

from __future__ import annotations

from rest_framework import serializers


class AdaptiveBatchRequest(serializers.Serializer):
    criterion = serializers.CharField(max_length=64)
