"""REST serializer of the MTG-style table's query."""

from __future__ import annotations

from rest_framework import serializers

from common.serializers import bounded_number
from ranking.selectors.runs import CONFIDENCE_RANGE, DEFAULT_CONFIDENCE


class MeansQuery(serializers.Serializer):
    """The bounds are the selector's, as the page's form (``ranking.forms.means``)."""

    criterion = serializers.CharField(required=False, max_length=64)
    confidence = bounded_number(CONFIDENCE_RANGE, default=DEFAULT_CONFIDENCE)
