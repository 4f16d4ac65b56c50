"""The API token's writes (annotations/services/tokens.py): one token per user, kept by
the API's sign-in, replaced from the account page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from annotations.services.tokens import token_get_or_create, token_rotate
from tests.at_once import NEEDS_ROW_LOCKS, at_once

pytestmark = pytest.mark.django_db


def test_get_or_create_makes_the_token_once_and_then_returns_it() -> None:
    user = User.objects.create_user("ada")
    first = token_get_or_create(user=user)
    assert token_get_or_create(user=user).key == first.key
    assert Token.objects.filter(user=user).count() == 1


def test_rotate_replaces_the_token_and_makes_one_when_there_was_none() -> None:
    user, other = User.objects.create_user("ada"), User.objects.create_user("bea")
    kept = token_get_or_create(user=other)
    made = token_rotate(user=user)
    assert Token.objects.get(user=user).key == made.key
    old = made.key
    new = token_rotate(user=user)
    assert new.key != old and not Token.objects.filter(key=old).exists()
    assert list(Token.objects.filter(user=user).values_list("key", flat=True)) == [new.key]
    assert Token.objects.get(user=other).key == kept.key  # another user's stays


@pytest.mark.django_db(transaction=True)
@NEEDS_ROW_LOCKS
def test_two_rotations_at_once_leave_one_working_token_on_postgresql():
    """Rotations from four tabs at once: each returns a token (no unique constraint's
    refusal), and the user has exactly one, one of those returned."""
    user = User.objects.create_user("rotating")
    outcomes = at_once(lambda: token_rotate(user=user).key, times=4)
    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    (kept,) = Token.objects.filter(user=user).values_list("key", flat=True)
    assert kept in outcomes and len(set(outcomes)) == 4
