"""REST serializer of the power analysis query."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.serializers import bounded_number
from ranking.selectors.power import (
    DRAWS_RANGE,
    PAY_PER_HOUR_RANGE,
    POWER_RANGE,
    SECONDS_PER_TASK_RANGE,
    SHARE_RANGE,
    power_draws_problem,
)
from ranking.selectors.runs import CONFIDENCE_RANGE


class PowerQuery(serializers.Serializer):
    """The bounds are the selector's, as the page's form (``ranking.forms.power``)."""

    criterion = serializers.CharField(required=False)
    share = bounded_number(SHARE_RANGE, required=False)
    draws = bounded_number(DRAWS_RANGE, default=0.0)
    confidence = bounded_number(CONFIDENCE_RANGE, default=0.95)
    power = bounded_number(POWER_RANGE, default=0.8)
    pairs = serializers.ChoiceField(choices=["adjacent", "all"], default="adjacent")
    pay_per_hour = bounded_number(PAY_PER_HOUR_RANGE, default=0.0)
    seconds_per_task = bounded_number(SECONDS_PER_TASK_RANGE, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "share" not in attrs and not attrs.get("criterion"):
            raise serializers.ValidationError(
                {"criterion": "Give a criterion (after launch) or a share (before launch)."}
            )
        if "share" in attrs:
            problem = power_draws_problem(share=attrs["share"], draws=attrs["draws"])
            if problem:
                raise serializers.ValidationError({"draws": problem})
        return attrs
