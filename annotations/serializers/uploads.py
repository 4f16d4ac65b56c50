"""REST serializers of systems and output uploads."""

from __future__ import annotations

from rest_framework import serializers

from annotations.models import (
    System,
)
from common.serializers import ApiModelSerializer


class SystemSerializer(ApiModelSerializer):
    outputs = serializers.IntegerField(source="n_outputs", read_only=True)

    class Meta:
        model = System
        fields = ["id", "label", "name", "metadata", "outputs"]


class UploadSerializer(serializers.Serializer):
    files = serializers.ListField(
        child=serializers.FileField(),
        allow_empty=False,
        help_text=".csv / .jsonl outputs, or an E2E release's <system>.tsv files.",
    )


class OutputsRemovedSerializer(serializers.Serializer):
    """What ``DELETE /api/campaigns/<slug>/outputs/`` removed."""

    outputs = serializers.IntegerField()
    items = serializers.IntegerField()
    systems = serializers.IntegerField()
    tasks = serializers.IntegerField(help_text="Tasks built from the outputs, removed too.")


class OutputsImportedSerializer(serializers.Serializer):
    file = serializers.CharField()
    systems = serializers.IntegerField()
    items = serializers.IntegerField()
    outputs = serializers.IntegerField()
    identical_groups = serializers.IntegerField()
    warnings = serializers.ListField(
        child=serializers.CharField(),
        help_text="What to know about the outputs as stored, in sentences (outputs that "
        "look written the other way than their language).",
    )
