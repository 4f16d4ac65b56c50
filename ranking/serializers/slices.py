"""REST serializers of rankings of slices: the query (a criterion by an item attribute)
and the runs of its slices side by side."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


class SlicesQuery(serializers.Serializer):
    criterion = serializers.CharField()
    by = serializers.CharField(max_length=40)


class SliceColumnSerializer(serializers.Serializer):
    """One slice's run (``ranking.selectors.slices.SliceColumn``)."""

    where = serializers.DictField(child=serializers.CharField(), source="run.where")
    slice = serializers.CharField(source="heading", help_text="e.g. 'challenge_set=a'.")
    ranking_run = serializers.IntegerField(source="run.pk")
    judgements = serializers.IntegerField(source="run.n_judgements")
    method = serializers.CharField(source="run.method")


class SliceCellSerializer(serializers.Serializer):
    """A system's line in one slice's run (``ranking.selectors.runs.Row``)."""

    value = serializers.FloatField()
    rank_lo = serializers.IntegerField()
    rank_hi = serializers.IntegerField()
    cluster = serializers.IntegerField(allow_null=True)


@extend_schema_field(SliceCellSerializer(allow_null=True))
class _SliceCellOrNull(serializers.Field):
    """A cell, or null: drf-spectacular reads no ``allow_null`` of a list's child serializer,
    so the cell is a field whose schema is the nullable serializer's."""

    def to_representation(self, value: Any) -> dict[str, Any]:
        return dict(SliceCellSerializer(value).data)


class SliceSystemSerializer(serializers.Serializer):
    system = serializers.CharField()
    by_slice = serializers.ListField(
        child=_SliceCellOrNull(),
        help_text="One per slice, in the order of ``slices``; null where the system is "
        "not ranked in that slice.",
    )


class SlicesSerializer(serializers.Serializer):
    criterion = serializers.CharField()
    by = serializers.CharField()
    slices = SliceColumnSerializer(
        many=True, help_text="The latest finished run on all items and on each value."
    )
    not_ranked = serializers.ListField(
        child=serializers.CharField(), help_text="The values without a finished run."
    )
    systems = SliceSystemSerializer(many=True)
