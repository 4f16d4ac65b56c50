"""Writes of a user's API token (``Authorization: Token <key>``): the one token a user
has, made on first sign-in through the API, replaced from their account page."""

from __future__ import annotations

from typing import Any

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


def token_revoke(*, user: User) -> int:
    """Delete the user's token (the API's next sign-in makes a new one); how many."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted


class PasswordChangeRevokesToken:
    """A password "validator" (``AUTH_PASSWORD_VALIDATORS``) for Django's hook after a
    password is set (:func:`django.contrib.auth.password_validation.password_changed`,
    called on every change: the account page, a reset by mail, the admin, the
    ``changepassword`` command): the user's API token is revoked with the old password,
    so whoever holds the token loses the access a stolen password gave them. It refuses
    no password."""

    def validate(self, password: str, user: User | None = None) -> None:
        return None

    def password_changed(self, password: str, user: User | None = None) -> None:
        if user is not None and user.pk is not None:
            token_revoke(user=user)

    def get_help_text(self) -> str:
        return "Setting a new password also revokes your API token (sign in to the API again)."


def token_revoke_if_password_unusable(
    sender: Any, *, instance: User, update_fields: Any = None, **kwargs: Any
) -> None:
    """``post_save`` of a user: a password made unusable (the admin's "Disable
    password-based authentication", ``set_unusable_password``) revokes the API token as
    a new password does; Django's ``password_changed`` hook is not called for it. A save
    of other fields only (``update_fields`` without the password: a sign-in's
    ``last_login``) changes nothing."""
    if update_fields is not None and "password" not in update_fields:
        return
    if instance.pk is not None and not instance.has_usable_password():
        token_revoke(user=instance)
