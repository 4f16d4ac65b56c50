"""REST serializer of the power analysis query."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class PowerQuery(serializers.Serializer):
    criterion = serializers.CharField(required=False)
    share = serializers.FloatField(min_value=0.0, max_value=1.0, required=False)
    draws = serializers.FloatField(min_value=0.0, max_value=1.0, default=0.0)
    confidence = serializers.FloatField(min_value=0.5, max_value=0.999, default=0.95)
    power = serializers.FloatField(min_value=0.05, max_value=0.999, default=0.8)
    pairs = serializers.ChoiceField(choices=["adjacent", "all"], default="adjacent")
    pay_per_hour = serializers.FloatField(min_value=0.0, max_value=10_000.0, default=0.0)
    seconds_per_task = serializers.FloatField(min_value=1.0, max_value=86_400.0, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "share" not in attrs and not attrs.get("criterion"):
            raise serializers.ValidationError(
                {"criterion": "Give a criterion (after launch) or a share (before launch)."}
            )
        if "share" in attrs and attrs["draws"] > 2 * min(attrs["share"], 1 - attrs["share"]):
            raise serializers.ValidationError(
                {"draws": "More draws than the share allows (draws count half to each)."}
            )
        return attrs
