"""REST serializers of members."""

from __future__ import annotations

from rest_framework import serializers

from annotations.models import (
    CampaignMembership,
)
from common.serializers import KnownFieldsOnly


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.get_username", read_only=True)

    class Meta:
        model = CampaignMembership
        fields = ["id", "username", "role"]
        read_only_fields = fields


class MemberSetSerializer(KnownFieldsOnly):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=CampaignMembership.Role.choices)
