"""REST serializers of power analysis: the query, and its two answers (a plan before
launch, a pilot's pairs after), told apart by ``kind``."""

from __future__ import annotations

import math
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from annotations.selectors.plan import PAY_PER_HOUR_DEFAULT
from common.serializers import bounded_number
from ranking.selectors.power import (
    DEFAULT_POWER,
    DRAWS_RANGE,
    PAY_PER_HOUR_RANGE,
    POWER_RANGE,
    SECONDS_PER_TASK_RANGE,
    SHARE_RANGE,
    power_draws_problem,
)
from ranking.selectors.runs import CONFIDENCE_RANGE, DEFAULT_CONFIDENCE


class PowerQuery(serializers.Serializer):
    """The bounds are the selector's, as the page's form (``ranking.forms.power``)."""

    criterion = serializers.CharField(required=False, max_length=64)
    share = bounded_number(SHARE_RANGE, required=False)
    draws = bounded_number(DRAWS_RANGE, default=0.0)
    confidence = bounded_number(CONFIDENCE_RANGE, default=DEFAULT_CONFIDENCE)
    power = bounded_number(POWER_RANGE, default=DEFAULT_POWER)
    pairs = serializers.ChoiceField(choices=["adjacent", "all"], default="adjacent")
    pay_per_hour = bounded_number(PAY_PER_HOUR_RANGE, default=PAY_PER_HOUR_DEFAULT)
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


@extend_schema_field(OpenApiTypes.NUMBER)
class Rounded(serializers.Field):
    """A number to four places; infinite (two systems level so far: no number of
    judgements separates them) or undefined (two systems never compared) as null."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value: float) -> float | None:
        return None if not math.isfinite(value) else round(value, 4)


class Kind(serializers.ChoiceField):
    """Which answer a body is: a constant, the one choice of its serializer."""

    def __init__(self, kind: str) -> None:
        super().__init__(choices=[kind], read_only=True, source="*")
        self.kind = kind

    def to_representation(self, value: Any) -> str:
        return self.kind


class SimulatedRatioSerializer(serializers.Serializer):
    """``ranking.selectors.power.SimulatedRatio``: quoted, not applied."""

    systems = serializers.IntegerField()
    low = serializers.FloatField()
    high = serializers.FloatField()


class PowerPlanSerializer(serializers.Serializer):
    """Before launch (``ranking.selectors.power.PowerPlan``)."""

    kind = Kind("plan")
    share = serializers.FloatField()
    draws = serializers.FloatField()
    confidence = serializers.FloatField()
    power = serializers.FloatField()
    systems = serializers.IntegerField()
    outputs_per_task = serializers.IntegerField()
    judgements_per_task = serializers.IntegerField()
    level = serializers.BooleanField(help_text="No number of judgements separates the two.")
    comparisons_per_pair = Rounded(allow_null=True)
    judgements = Rounded(allow_null=True)
    tasks = Rounded(allow_null=True)
    hours = Rounded(allow_null=True)
    cost = Rounded(allow_null=True)
    seconds_per_task = serializers.FloatField()
    pay_per_hour = serializers.FloatField()
    simulated_ratios = SimulatedRatioSerializer(
        many=True,
        source="measured",
        help_text="How far off the figure was on one simulated E2E-like campaign.",
    )


class PowerPairSerializer(serializers.Serializer):
    """A pair of systems after launch (``ranking.selectors.power.PowerPair``)."""

    better = serializers.CharField()
    worse = serializers.CharField()
    share = Rounded(allow_null=True)
    draws = Rounded(allow_null=True)
    comparisons = serializers.IntegerField(source="have")
    compared = serializers.BooleanField(
        help_text="Whether the two were ever compared; when not, the pilot gives no share "
        "to plan from and the figures are null (no estimate), not level."
    )
    resolved = serializers.BooleanField()
    level = serializers.BooleanField()
    comparisons_more = Rounded(
        allow_null=True,
        help_text="Comparisons still needed for the test to reach the power asked at the "
        "pilot's share, taken as the truth (power at the observed share).",
    )
    judgements_more = Rounded(allow_null=True)
    judgements_more_low = Rounded(
        allow_null=True,
        source="judgements_low",
        help_text="judgements_more at the far end of the share's confidence interval.",
    )
    judgements_more_high = Rounded(
        allow_null=True,
        source="judgements_high",
        help_text="judgements_more at the end nearer 1/2; null (unbounded) when the "
        "interval reaches 1/2: the pilot cannot tell the pair from level.",
    )
    significant = serializers.BooleanField(
        help_text="The comparisons so far already tell the two apart at the confidence "
        "(a two-sided test of the share against 1/2, draws counting half)."
    )
    hours = Rounded(allow_null=True)
    cost = Rounded(allow_null=True)


class PowerPilotSerializer(serializers.Serializer):
    """After launch, from the judgements so far (``ranking.selectors.power.PowerReport``)."""

    kind = Kind("pilot")
    criterion = serializers.CharField()
    confidence = serializers.FloatField()
    power = serializers.FloatField()
    systems = serializers.IntegerField()
    outputs_per_task = serializers.IntegerField()
    judgements = serializers.IntegerField()
    seconds_per_task = serializers.FloatField()
    pay_per_hour = serializers.FloatField()
    pairs = PowerPairSerializer(many=True)


#: the schema of the API's answer: a plan or a pilot, by ``kind``
POWER_ANSWER = PolymorphicProxySerializer(
    component_name="PowerAnswer",
    serializers={"plan": PowerPlanSerializer, "pilot": PowerPilotSerializer},
    resource_type_field_name="kind",
)
