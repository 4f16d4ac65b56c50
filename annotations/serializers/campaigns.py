"""REST serializers of campaigns (the shape of input and output; domain rules live in the services)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from annotations.models import (
    Campaign,
)
from annotations.selectors.campaigns import AT_LEAST_ONE, AT_MOST, SETTINGS_FIELDS, TEXT_AT_MOST
from common.serializers import ApiModelSerializer, KnownFieldsOnly

# Query parameters (validated like bodies: a bad value is a 400 naming the parameter) ------


class CampaignQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Campaign.Status.values, required=False)


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


class CampaignCreateSerializer(KnownFieldsOnly):
    slug = serializers.SlugField(max_length=64)
    name = serializers.CharField(
        max_length=200,
        required=False,
        help_text="Its name on every page; the slug when left out (an empty name is refused).",
    )
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=TEXT_AT_MOST["description"]
    )


class CampaignUpdateSerializer(ApiModelSerializer):
    class Meta:
        model = Campaign
        fields = sorted(SETTINGS_FIELDS)
        extra_kwargs: dict[str, dict[str, Any]] = {
            name: {"required": False} for name in SETTINGS_FIELDS
        }
        # The settings check says why these must be at least 1 ("every task needs a
        # judge"), for a negative number too; the column's own bound said "greater than
        # or equal to 0", which suggested 0 would do.
        for name in AT_LEAST_ONE:
            extra_kwargs[name]["min_value"] = None
        # The schema says the settings check's upper bounds (not the column's 2**63 - 1).
        for name, (most, _unit) in AT_MOST.items():
            extra_kwargs[name]["max_value"] = most
        for name, longest in TEXT_AT_MOST.items():
            extra_kwargs[name]["max_length"] = longest


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


# Lifecycle and cloning ----------------------------------------------------------------------


class CloneSerializer(KnownFieldsOnly):
    slug = serializers.SlugField(max_length=64, help_text="The new campaign's slug.")
    name = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text="Default: '<name> (round 2)'."
    )
