"""REST serializer of the datasheet's answers."""

from __future__ import annotations

from rest_framework import serializers

from common.serializers import KnownFieldsOnly


class DatasheetAnswersSerializer(KnownFieldsOnly):
    answers = serializers.DictField(child=serializers.CharField(allow_blank=True, max_length=5000))
