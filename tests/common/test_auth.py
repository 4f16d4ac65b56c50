"""Sign-in throttling (django-axes): the 30th wrong password in a row from one client is a 429,
on the API's token endpoint and on the web sign-in, and stays so for the cool-off period."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.utils import timezone
from rest_framework.test import APIClient

from common.auth import client_ip_address

pytestmark = pytest.mark.django_db
PASSWORD = "right-password-1"
LIMIT = 30


@pytest.fixture
def user(settings):
    # Fast hashing: these tests check ~100 passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return get_user_model().objects.create_user(username="ada", password=PASSWORD)


def _token(client: APIClient, password: str, **extra: Any):
    return client.post(
        "/api/auth/token/", {"username": "ada", "password": password}, format="json", **extra
    )


def _web(client: Client, password: str, **extra: Any):
    return client.post("/accounts/login/", {"username": "ada", "password": password}, **extra)


def test_limit_is_thirty_by_default():
    assert django_settings.AXES_FAILURE_LIMIT == LIMIT


def test_token_endpoint_locks_out_at_the_30th_wrong_password(user):
    client = APIClient()
    for attempt in range(1, LIMIT):
        response = _token(client, f"wrong-{attempt}")
        assert response.status_code == 401, (attempt, response.content)
        assert response.json()["code"] == "authentication_failed"
    locked = _token(client, "wrong-30")
    assert locked.status_code == 429
    body = locked.json()
    assert body["code"] == "locked_out" and "Too many failed sign-ins" in body["detail"]
    assert int(locked["Retry-After"]) == 15 * 60
    # The right password does not help while locked out...
    assert _token(client, PASSWORD).status_code == 429
    # ...another client is not locked out...
    other = _token(APIClient(REMOTE_ADDR="10.0.0.7"), PASSWORD)
    assert other.status_code == 200 and other.json()["token"]
    # ...and after the cool-off period without attempts, the right password works again.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert _token(client, PASSWORD).status_code == 200


def test_another_accounts_sign_in_does_not_reset_the_count(user):
    """An outside review guessed 87 passwords from one address by signing in as its own
    account after every 29 failures: the count is per address, and a right password of
    any account used to reset it."""
    get_user_model().objects.create_user(username="bob", password="bobs-password-1")
    client = APIClient()
    for attempt in range(LIMIT - 1):
        assert _token(client, f"wrong-{attempt}").status_code == 401
    bob = client.post(
        "/api/auth/token/", {"username": "bob", "password": "bobs-password-1"}, format="json"
    )
    assert bob.status_code == 200
    assert _token(client, "wrong-30").status_code == 429
    web = Client()
    assert (
        web.post("/accounts/login/", {"username": "bob", "password": "bobs-password-1"}).status_code
        == 429
    )


def test_failures_expire_with_the_cool_off_not_with_a_right_password(user):
    client = APIClient()
    for attempt in range(5):
        assert _token(client, f"wrong-{attempt}").status_code == 401
    assert _token(client, PASSWORD).status_code == 200
    assert AccessAttempt.objects.get().failures_since_start == 5
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    for attempt in range(LIMIT - 1):
        assert _token(client, f"again-{attempt}").status_code == 401
    assert _token(client, "wrong").status_code == 429


def test_missing_fields_are_400_and_not_counted(user):
    client = APIClient()
    response = client.post("/api/auth/token/", {"username": "ada"}, format="json")
    assert response.status_code == 400
    assert response.json()["fields"] == {"password": ["This field is required."]}
    assert not AccessAttempt.objects.exists()


def test_web_sign_in_locks_out_at_the_30th_wrong_password(user):
    client = Client()
    for attempt in range(1, LIMIT):
        response = _web(client, f"wrong-{attempt}")
        assert response.status_code == 200, attempt
        assert b'role="alert"' in response.content  # the page says the password was wrong
    locked = _web(client, "wrong-30")
    assert locked.status_code == 429
    assert b"Too many sign-in attempts" in locked.content
    assert locked["Retry-After"] == str(15 * 60)
    assert _web(client, PASSWORD).status_code == 429
    # The web sign-in and the API count the same client together.
    assert _token(APIClient(), PASSWORD).status_code == 429


def test_web_sign_in_with_the_right_password_after_a_few_failures(user):
    client = Client()
    for attempt in range(3):
        assert _web(client, f"wrong-{attempt}").status_code == 200
    response = _web(client, PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/"


def test_client_address_behind_a_proxy_is_the_one_the_proxy_appended(settings):
    factory = RequestFactory()
    forged = "6.6.6.6, 203.0.113.9"  # the client sent the first; our proxy appended the second
    request = factory.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forged)
    settings.BEHIND_PROXY = False
    assert client_ip_address(request) == "10.0.0.1"
    settings.BEHIND_PROXY = True
    settings.PROXY_COUNT = 1
    assert client_ip_address(request) == "203.0.113.9"
    settings.PROXY_COUNT = 2
    assert client_ip_address(request) == "6.6.6.6"
    assert client_ip_address(factory.get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"


def test_behind_a_proxy_clients_are_counted_apart(user, settings):
    settings.BEHIND_PROXY = True
    settings.PROXY_COUNT = 1
    client = APIClient(REMOTE_ADDR="10.0.0.1")
    for attempt in range(LIMIT):
        _token(client, f"wrong-{attempt}", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert _token(client, PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 429
    # Same proxy address, another client: not locked out.
    assert _token(client, PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 200
