"""REST serializer of the judgements export's query."""

from __future__ import annotations

from rest_framework import serializers

from annotations.exports.judgements import FORMATS


class ExportQuerySerializer(serializers.Serializer):
    criterion = serializers.CharField(max_length=100)
    # ``fmt``, not ``format``: DRF reserves ``format`` (URL_FORMAT_OVERRIDE). The choices
    # are the export's own list, so a format added there is offered here.
    fmt = serializers.ChoiceField(choices=list(FORMATS), default="csv")
    include_excluded = serializers.BooleanField(required=False, default=True)
