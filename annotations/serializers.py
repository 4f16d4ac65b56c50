"""REST serializers: the shape of input and output. Domain rules live in the services."""

from __future__ import annotations

import math
from typing import Any

from django.db import models
from rest_framework import serializers

from annotations.models import (
    Campaign,
    CampaignMembership,
    Criterion,
    Judgement,
    JudgementScore,
    Output,
    System,
    Worker,
)
from annotations.services.campaigns import SETTINGS_FIELDS
from annotations.services.criteria import CRITERION_PRESETS


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


# Query parameters (validated like bodies: a bad value is a 400 naming the parameter) ------


class CampaignQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Campaign.Status.values, required=False)


class WorkerQuerySerializer(serializers.Serializer):
    flagged = serializers.BooleanField(required=False, allow_null=True, default=None)
    excluded = serializers.BooleanField(required=False, allow_null=True, default=None)
    platform = serializers.ChoiceField(choices=Worker.Platform.values, required=False)


class JudgementQuerySerializer(serializers.Serializer):
    criterion = serializers.CharField(required=False, max_length=100)
    worker = serializers.CharField(required=False, max_length=200)
    submitted_after = serializers.DateTimeField(
        required=False,
        error_messages={"invalid": "Not an ISO 8601 date and time (e.g. 2025-01-31T12:00Z)."},
    )


class ExportQuerySerializer(serializers.Serializer):
    criterion = serializers.CharField(max_length=100)
    fmt = serializers.ChoiceField(choices=["csv", "jsonl", "wmt"], default="csv")
    include_excluded = serializers.BooleanField(required=False, default=True)


class CampaignSerializer(ApiModelSerializer):
    owner = serializers.CharField(source="owner.get_username", default=None, read_only=True)

    class Meta:
        model = Campaign
        fields = [
            "slug",
            "name",
            "description",
            "status",
            "owner",
            *sorted(SETTINGS_FIELDS - {"name", "description"}),
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


class CampaignCreateSerializer(serializers.Serializer):
    slug = serializers.SlugField(max_length=64)
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    description = serializers.CharField(required=False, allow_blank=True)


class CampaignUpdateSerializer(ApiModelSerializer):
    class Meta:
        model = Campaign
        fields = sorted(SETTINGS_FIELDS)
        extra_kwargs = {name: {"required": False} for name in SETTINGS_FIELDS}


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
        ]
        read_only_fields = ["id"]
        extra_kwargs = {
            "name": {"required": False, "validators": []},
            "question": {"required": False},
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


class SystemSerializer(ApiModelSerializer):
    outputs = serializers.IntegerField(source="n_outputs", read_only=True)

    class Meta:
        model = System
        fields = ["id", "label", "name", "metadata", "outputs"]


class UploadSerializer(serializers.Serializer):
    files = serializers.ListField(
        child=serializers.FileField(),
        allow_empty=False,
        help_text=".csv / .jsonl outputs, or an E2E release's <system>.tsv files.",
    )


class OutputsImportedSerializer(serializers.Serializer):
    file = serializers.CharField()
    systems = serializers.IntegerField()
    items = serializers.IntegerField()
    outputs = serializers.IntegerField()
    identical_groups = serializers.IntegerField()


class BuildSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**31 - 1
    )


class WorkerSerializer(ApiModelSerializer):
    class Meta:
        model = Worker
        fields = [
            "id",
            "platform",
            "external_id",
            "flagged",
            "excluded",
            "expert",
            "stopped",
            "consented_at",
            "created_at",
            "last_seen_at",
        ]
        read_only_fields = [f for f in fields if f not in ("flagged", "excluded", "expert")]


class WorkerQualitySerializer(serializers.Serializer):
    worker = WorkerSerializer()
    tasks_done = serializers.IntegerField(
        help_text="Counted judgements (real tasks, first answer)."
    )
    pages = serializers.IntegerField(
        help_text="Pages submitted: the unit of tasks_per_worker (set-up 1: one item, every criterion)."
    )
    counted_pages = serializers.IntegerField()
    attention_pages = serializers.IntegerField()
    repeat_pages = serializers.IntegerField()
    median_seconds = serializers.FloatField(allow_null=True)
    attention_checks = serializers.IntegerField()
    attention_pass_rate = serializers.FloatField(allow_null=True)
    self_consistency = serializers.FloatField(allow_null=True)
    uniform_rate = serializers.FloatField(allow_null=True)
    agreement = serializers.FloatField(allow_null=True)
    below_quality_threshold = serializers.BooleanField(source="quality.below")
    quality_reason = serializers.CharField(source="quality.reason")


class JudgementScoreSerializer(ApiModelSerializer):
    system = serializers.CharField(source="output.system.label")
    item = serializers.CharField(source="output.item.external_id")

    class Meta:
        model = JudgementScore
        fields = ["output", "system", "item", "slot", "score", "rank", "coverage"]


class JudgementSerializer(ApiModelSerializer):
    criterion = serializers.CharField(source="criterion.name")
    worker = serializers.CharField(source="worker.external_id")
    platform = serializers.CharField(source="worker.platform")
    scores = serializers.SerializerMethodField()

    class Meta:
        model = Judgement
        fields = [
            "id",
            "task",
            "criterion",
            "worker",
            "platform",
            "started_at",
            "submitted_at",
            "seconds_on_task",
            "too_fast",
            "scores",
        ]

    def get_scores(self, obj: Judgement) -> list[dict]:
        regular = [s for s in obj.scores.all() if s.role == "regular"]
        return JudgementScoreSerializer(regular, many=True).data  # type: ignore[return-value]


class CriterionProgressSerializer(serializers.Serializer):
    criterion = serializers.CharField(source="criterion.name")
    planned = serializers.IntegerField()
    collected = serializers.IntegerField()
    percent = serializers.FloatField()
    per_hour = serializers.FloatField()
    finish_at = serializers.DateTimeField(allow_null=True)


class AgreementSerializer(serializers.Serializer):
    criterion = serializers.CharField(source="criterion.name")
    judgements = serializers.IntegerField()
    workers = serializers.IntegerField()
    preference_alpha = serializers.FloatField(allow_null=True)
    score_alpha = serializers.FloatField(allow_null=True)
    inter_kappa = serializers.FloatField(
        allow_null=True, help_text="WMT's pairwise kappa between judges of the same task."
    )
    intra_kappa = serializers.FloatField(
        allow_null=True, help_text="WMT's pairwise kappa of a judge with itself (repeats)."
    )
    excluded_judgements = serializers.IntegerField(
        help_text="Judgements of excluded workers, left out of every figure (as rankings "
        "leave them out)."
    )
    excluded_workers = serializers.IntegerField(
        help_text="Excluded workers whose judgements are left out."
    )


class ProgressSerializer(serializers.Serializer):
    status = serializers.CharField()
    criteria = CriterionProgressSerializer(many=True)
    agreement = AgreementSerializer(many=True)
    comparisons = serializers.DictField(
        child=serializers.DictField(child=serializers.DictField(child=serializers.IntegerField())),
        help_text="criterion -> system -> system -> number of comparisons",
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as the header `Authorization: Token <token>`.")


class EstimateSerializer(serializers.Serializer):
    value = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True, help_text="95% bootstrap interval, low end.")
    high = serializers.FloatField(allow_null=True, help_text="95% bootstrap interval, high end.")
    n = serializers.IntegerField(help_text="Outputs (alpha) or systems (correlations).")
    reason = serializers.CharField(help_text="Why the value is undefined (else empty).")
    interval_reason = serializers.CharField(
        help_text="Why the interval is undefined while the value is not (else empty)."
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        def finite(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {
            "value": finite(instance.value),
            "low": finite(instance.low),
            "high": finite(instance.high),
            "n": instance.n,
            "reason": instance.reason,
            "interval_reason": instance.interval_reason,
        }


class WorkerVersusExpertsSerializer(serializers.Serializer):
    worker = serializers.CharField(source="worker.external_id")
    worker_id = serializers.IntegerField(source="worker.pk")
    excluded = serializers.BooleanField(source="worker.excluded")
    alpha = EstimateSerializer(
        help_text="Krippendorff's alpha (interval) between the worker and the experts' "
        "consensus (the experts' mean score on each output), on the outputs both judged: "
        "two coders, so the experts' agreement among themselves does not enter."
    )


class ExpertReportSerializer(serializers.Serializer):
    criterion = serializers.CharField(source="criterion.name")
    experts = serializers.IntegerField()
    workers = WorkerVersusExpertsSerializer(many=True)
    alpha_meaning = serializers.CharField(help_text="What each worker's alpha is.")
    spearman = EstimateSerializer(source="ranking.spearman")
    kendall_tau_b = EstimateSerializer(source="ranking.kendall")
    excluded = serializers.IntegerField(
        help_text="Excluded crowd workers: left out of spearman and kendall_tau_b."
    )
    spearman_with_excluded = EstimateSerializer(
        source="ranking_with_excluded.spearman", allow_null=True, default=None
    )
    kendall_tau_b_with_excluded = EstimateSerializer(
        source="ranking_with_excluded.kendall", allow_null=True, default=None
    )


class ExpertExcludeSerializer(serializers.Serializer):
    criterion = serializers.CharField(max_length=100)
    threshold = serializers.FloatField(min_value=-1.0, max_value=1.0)
    min_units = serializers.IntegerField(min_value=1, default=10)


# Lifecycle, members, payments ---------------------------------------------------------------


class CloneSerializer(serializers.Serializer):
    slug = serializers.SlugField(max_length=64, help_text="The new campaign's slug.")
    name = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text="Default: '<name> (round 2)'."
    )


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.get_username", read_only=True)

    class Meta:
        model = CampaignMembership
        fields = ["id", "username", "role"]
        read_only_fields = fields


class MemberSetSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=CampaignMembership.Role.choices)


class PaymentRowSerializer(serializers.Serializer):
    """One worker on the payments page: the quality checks' suggestion and the decision."""

    worker = WorkerSerializer()
    pages = serializers.IntegerField()
    counted_pages = serializers.IntegerField()
    attention_pages = serializers.IntegerField()
    repeat_pages = serializers.IntegerField()
    tasks_done = serializers.IntegerField()
    attention_checks = serializers.IntegerField()
    attention_passed = serializers.IntegerField()
    checks = serializers.IntegerField()
    checks_failed = serializers.IntegerField()
    failed_kinds = serializers.ListField(child=serializers.CharField())
    suggestion = serializers.CharField()
    reason = serializers.CharField()
    decision = serializers.CharField(source="worker.review", help_text="'' while undecided.")
    bonus = serializers.DecimalField(source="worker.bonus", max_digits=8, decimal_places=2)
