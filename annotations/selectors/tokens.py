"""Reads of a user's API token (``Authorization: Token <key>``): the one token a user has."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token


def token_of(*, user: User) -> Token | None:
    """The user's API token, or None if they have none yet."""
    return Token.objects.filter(user=user).first()
