"""REST serializers of a campaign's lifecycle (a campaign in its new state is
``annotations.serializers.campaigns.CampaignSerializer``)."""

from __future__ import annotations

from rest_framework import serializers

from common.serializers import KnownFieldsOnly


class BuildSerializer(KnownFieldsOnly):
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**31 - 1
    )
    design = serializers.CharField(
        required=False,
        max_length=32,
        help_text='The design you saw: "none" before any task, else the seed of the tasks '
        "built (the campaign's task_seed). When the tasks were built since, nothing is "
        "built and the answer is 409: send it to make a retried build safe.",
    )
