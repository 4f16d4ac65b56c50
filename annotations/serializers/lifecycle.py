"""REST serializers of a campaign's lifecycle (a campaign in its new state is
``annotations.serializers.campaigns.CampaignSerializer``)."""

from __future__ import annotations

from rest_framework import serializers


class BuildSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**31 - 1
    )
