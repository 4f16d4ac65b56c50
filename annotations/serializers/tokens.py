"""REST serializers of the API token."""

from __future__ import annotations

from rest_framework import serializers


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as the header `Authorization: Token <token>`.")
