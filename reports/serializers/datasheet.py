"""REST serializer of the datasheet's answers."""

from __future__ import annotations

from rest_framework import serializers


class DatasheetAnswersSerializer(serializers.Serializer):
    answers = serializers.DictField(child=serializers.CharField(allow_blank=True, max_length=5000))
