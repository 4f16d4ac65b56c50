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


def test_a_new_password_revokes_the_token_on_every_path(client) -> None:
    """The account page's password change left the API token working: whoever held it
    (or the stolen password's token) kept the access. Django's hook after a password is
    set (``password_changed``) now revokes it: the page, and ``set_password`` as the
    admin, the reset by mail and the ``changepassword`` command use it."""
    from rest_framework.test import APIClient

    user = User.objects.create_user("ada", password="first-Pass-2026!")
    other = User.objects.create_user("bea", password="other-Pass-2026!")
    kept = token_get_or_create(user=other)
    key = token_get_or_create(user=user).key
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/campaigns/").status_code == 200

    client.login(username="ada", password="first-Pass-2026!")
    changed = client.post(
        "/accounts/password_change/",
        {
            "old_password": "first-Pass-2026!",
            "new_password1": "second-Pass-2026!",
            "new_password2": "second-Pass-2026!",
        },
    )
    assert changed.status_code == 302
    assert not Token.objects.filter(user=user).exists()
    done = client.get(changed["Location"]).content.decode()
    assert "Your API token, if you had one, is revoked" in done  # said where it happens
    assert api.get("/api/campaigns/").status_code == 401
    # The API's sign-in with the new password makes a new token.
    signed_in = APIClient().post(
        "/api/auth/token/", {"username": "ada", "password": "second-Pass-2026!"}
    )
    assert signed_in.status_code == 200 and signed_in.json()["token"] != key

    user.refresh_from_db()
    user.set_password("third-Pass-2026!")
    user.save()
    assert not Token.objects.filter(user=user).exists()
    assert Token.objects.get(user=other).key == kept.key  # another user's stays


def test_a_login_that_only_rehashes_the_password_keeps_the_token(settings) -> None:
    """Django re-hashes a password on sign-in when the hasher changed, without calling
    the change hook: the token stays."""
    from django.contrib.auth import authenticate

    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
    user = User.objects.create_user("cid", password="cid-Pass-2026!")
    key = token_get_or_create(user=user).key
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]
    assert authenticate(username="cid", password="cid-Pass-2026!") is not None
    user.refresh_from_db()
    assert user.password.startswith("pbkdf2_")  # re-hashed
    assert Token.objects.get(user=user).key == key


def test_a_password_made_unusable_revokes_the_token_too(admin_client) -> None:
    """The admin's "Disable password-based authentication" left the token working:
    ``set_unusable_password`` does not call Django's password_changed hook."""
    user = User.objects.create_user("dee", password="dee-Pass-2026!")
    key = token_get_or_create(user=user).key
    done = admin_client.post(
        f"/admin/auth/user/{user.pk}/password/",
        {"usable_password": "false", "unset-password": "Disable password-based authentication"},
    )
    assert done.status_code == 302, done.content[:500]
    user.refresh_from_db()
    assert not user.has_usable_password()
    assert not Token.objects.filter(key=key).exists()


def test_a_sign_in_of_a_user_without_a_password_keeps_their_token(client) -> None:
    """Only a save of the password revokes: a sign-in saves last_login alone."""
    user = User.objects.create_user("eve")  # no usable password
    key = token_get_or_create(user=user).key
    client.force_login(user)
    assert Token.objects.get(user=user).key == key
