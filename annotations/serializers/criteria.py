"""REST serializers of criteria."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from annotations.models import (
    Criterion,
    Output,
)
from annotations.services.criteria import CRITERION_PRESETS
from common.serializers import ApiModelSerializer


class CriterionSerializer(ApiModelSerializer):
    # RankME's standard (a magnitude criterion is launched only with one): the designer's
    # criterion form sets the same fields through ``services.criteria.criterion_define``.
    standard_output = serializers.PrimaryKeyRelatedField(
        queryset=Output.objects.all(),
        required=False,
        allow_null=True,
        help_text="The id of an uploaded output of this campaign to use as the standard: its "
        "item's input and its text are copied into standard_input and standard_text.",
    )
    standard_input = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="The standard's input (meaning representation), written in; clears "
        "standard_output.",
    )
    standard_text = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="The standard's output text, written in; clears standard_output.",
    )
    content_checks = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Checks ticked per output (e.g. missing_info).",
    )

    class Meta:
        model = Criterion
        fields = [
            "id",
            "name",
            "question",
            "show_input",
            "scale",
            "scale_settings",
            "position",
            "standard_output",
            "standard_input",
            "standard_text",
            "content_checks",
            "example",
        ]
        read_only_fields = ["id"]
        extra_kwargs = {
            "name": {"required": False, "validators": []},
            "question": {"required": False},
            "example": {
                "required": False,
                "max_length": 20_000,
                "help_text": "The worked example on the workers' instructions (Markdown); "
                "empty: one generated from the standard (magnitude criteria).",
            },
        }

    @staticmethod
    def split(validated: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """The criterion's own fields, and the standard and checks (``criterion_define``'s
        keyword arguments)."""
        fields = dict(validated)
        rankme: dict[str, Any] = {
            name: fields.pop(name)
            for name in ("standard_output", "standard_input", "standard_text", "content_checks")
            if name in fields
        }
        return fields, rankme


class CriterionCreateSerializer(CriterionSerializer):
    preset = serializers.ChoiceField(
        choices=sorted(CRITERION_PRESETS), required=False, allow_blank=True, write_only=True
    )

    class Meta(CriterionSerializer.Meta):
        fields = [*CriterionSerializer.Meta.fields, "preset"]

    def validate(self, attrs: dict) -> dict:
        if not attrs.get("preset") and not (attrs.get("name") and attrs.get("question")):
            raise serializers.ValidationError("Give a preset, or a name and a question.")
        return attrs
