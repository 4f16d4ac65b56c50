"""REST serializer of a campaign's languages (PATCH)."""

from __future__ import annotations

from rest_framework import serializers

from common.serializers import KnownFieldsOnly


class LanguagesUpdateSerializer(KnownFieldsOnly):
    languages = serializers.ListField(child=serializers.CharField(max_length=35), required=False)
    quotas = serializers.DictField(
        child=serializers.IntegerField(min_value=0, allow_null=True), required=False
    )
    translations = serializers.DictField(child=serializers.DictField(), required=False)
