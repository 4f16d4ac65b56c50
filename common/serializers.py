"""DRF serializer parts every API uses: JSON columns that refuse what the database would
refuse, and bounded numbers that answer as the pages' forms do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import models
from rest_framework import serializers

from common.forms import NOT_A_NUMBER
from common.nul import nul_message, nul_path


def _refuse_nul(value: object) -> None:
    """JSON may not carry NUL characters (PostgreSQL's jsonb refuses them): a 400 naming
    where, found by the one NUL walker (``common.nul``) the file importers use too."""
    where = nul_path(value)
    if where is not None:
        raise serializers.ValidationError(
            nul_message(f"The value at '{where}'" if where else "The value")
        )


class JSONObjectField(serializers.JSONField):
    """A JSON value stored in a JSON column: no NUL characters anywhere in it."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if value is None and not self.allow_null:  # "null" sent as form data
            self.fail("null")
        _refuse_nul(value)
        return value


#: Names a form post may carry beside its fields (DRF's browsable API, Django's CSRF).
_FORM_EXTRAS = frozenset({"csrfmiddlewaretoken", "_content", "_content_type", "_method"})


class KnownFieldsOnly(serializers.Serializer):
    """A request body whose every name is a field of it: a misspelt or unsettable name
    (``staus``, a campaign's ``status`` in a settings PATCH) is a 400 naming it and the
    fields the request takes, where DRF drops it and answers 200 as if it were taken.
    Read-only fields stay known, so a GET's body may be sent back."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = [k for k in data if k not in self.fields and k not in _FORM_EXTRAS]
            if unknown:
                takes = ", ".join(n for n, f in self.fields.items() if not f.read_only)
                raise serializers.ValidationError(
                    {
                        str(name)[:64]: [f"This request takes no such field; it takes {takes}."]
                        for name in unknown[:10]
                    }
                )
        return super().to_internal_value(data)


class ApiModelSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    """Model serializer whose JSON columns refuse what the database would refuse."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.JSONField: JSONObjectField,
    }


def bounded_number(bounds: tuple[float, float], **kwargs: Any) -> serializers.FloatField:
    """The API twin of ``common.forms.bounded_number``: a number from ``low`` to ``high``
    inclusive, refused with the same messages as the page's field of the same bounds
    (DRF's and Django's range messages are the same words; not a number: ``NOT_A_NUMBER``)."""
    low, high = bounds
    return serializers.FloatField(
        min_value=low, max_value=high, error_messages={"invalid": NOT_A_NUMBER}, **kwargs
    )
