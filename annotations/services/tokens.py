"""Writes of a user's API token (``Authorization: Token <key>``): the one token a user
has, made on first sign-in through the API, replaced from their account page."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from rest_framework.authtoken.models import Token

from common.queries import row_lock


def token_get_or_create(*, user: User) -> Token:
    """The user's token, made now if they have none (the API's sign-in)."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def token_rotate(*, user: User) -> Token:
    """A new token for the user; the old one, if any, stops working at once (both in one
    transaction, so the user is never left with none). The user's row lock makes two
    rotations at once (two tabs) one after the other: each leaves one token."""
    row_lock(User, user.pk)
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)
