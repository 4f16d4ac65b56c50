"""The judgements export's query (annotations/serializers/exports.py): its formats are the
export's one list, so a format added to ``annotations.exports.judgements.FORMATS`` is
offered by the API the day it lands."""

from __future__ import annotations

import importlib

from rest_framework import serializers

from annotations.exports.judgements import FORMATS
from annotations.serializers import exports as export_serializers
from annotations.serializers.exports import ExportQuerySerializer


def test_the_format_choices_are_the_export_s_list() -> None:
    field = ExportQuerySerializer().fields["fmt"]
    assert isinstance(field, serializers.ChoiceField)
    assert list(field.choices) == list(FORMATS)


def test_every_format_of_the_list_is_valid_and_csv_is_the_default() -> None:
    for fmt in FORMATS:
        query = ExportQuerySerializer(data={"criterion": "quality", "fmt": fmt})
        assert query.is_valid(), query.errors
        assert query.validated_data["fmt"] == fmt
    default = ExportQuerySerializer(data={"criterion": "quality"})
    assert default.is_valid() and default.validated_data["fmt"] == "csv"


def test_a_format_added_to_the_list_is_offered(monkeypatch) -> None:
    monkeypatch.setitem(FORMATS, "tsv", ("text/tab-separated-values; charset=utf-8", "tsv"))
    try:
        fresh = importlib.reload(export_serializers).ExportQuerySerializer
        query = fresh(data={"criterion": "quality", "fmt": "tsv"})
        assert query.is_valid(), query.errors
    finally:
        monkeypatch.undo()
        importlib.reload(export_serializers)
