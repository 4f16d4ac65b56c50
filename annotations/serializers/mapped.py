"""REST serializers of column-mapped rating imports: a mapping, the upload."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.serializers import KnownFieldsOnly


class MappingSerializer(KnownFieldsOnly):
    name = serializers.CharField(max_length=64)
    title = serializers.CharField(read_only=True)
    builtin = serializers.BooleanField(read_only=True)
    mapping = serializers.JSONField(
        help_text="The mapping in its JSON form (see docs/importing.md)."
    )


class RatingsUploadSerializer(KnownFieldsOnly):
    file = serializers.FileField(help_text="A CSV, TSV or JSONL rating file.")
    mapping = serializers.CharField(
        required=False, allow_blank=True, help_text="A built-in or saved preset's name."
    )
    mapping_json = serializers.CharField(
        required=False, allow_blank=True, help_text="A mapping in its JSON form (instead)."
    )
    preview = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=50,
        help_text="Only parse the first N rows (1-50) and write nothing; leave it out to import.",
    )
    experts = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("mapping")) == bool(attrs.get("mapping_json")):
            raise serializers.ValidationError("Give either mapping (a name) or mapping_json.")
        return attrs
