"""DRF serializer parts every API uses: JSON columns that refuse what the database would refuse."""

from __future__ import annotations

from typing import Any

from django.db import models
from rest_framework import serializers


def _no_nul(value: object, where: str = "") -> None:
    """JSON may not carry NUL characters (PostgreSQL's jsonb refuses them)."""
    if isinstance(value, str):
        if "\x00" in value:
            raise serializers.ValidationError(
                f"Null characters are not allowed{f' (in {where})' if where else ''}."
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            _no_nul(key, where)
            _no_nul(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _no_nul(item, f"{where}[{index}]")


class JSONObjectField(serializers.JSONField):
    """A JSON value stored in a JSON column: no NUL characters anywhere in it."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if value is None and not self.allow_null:  # "null" sent as form data
            self.fail("null")
        _no_nul(value)
        return value


class ApiModelSerializer(serializers.ModelSerializer):
    """Model serializer whose JSON columns refuse what the database would refuse."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.JSONField: JSONObjectField,
    }
