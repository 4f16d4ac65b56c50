"""The user's page (annotations/views/tokens.py): their API token, shown and replaced."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def test_the_account_page_makes_a_new_token_and_the_old_one_stops_working(client) -> None:
    user = User.objects.create_user("ada", password="a usable password")
    old = Token.objects.create(user=user).key
    client.force_login(user)
    assert old in client.get(reverse("annotations:designer-account")).content.decode()
    response = client.post(reverse("annotations:designer-account"), follow=True)
    body = response.content.decode()
    new = Token.objects.get(user=user).key
    assert new != old and new in body and old not in body
    assert "A new API token was created; the old one no longer works." in body
    api = "/api/campaigns/"
    assert client.logout() is None
    assert client.get(api, HTTP_AUTHORIZATION=f"Token {old}").status_code == 401
    assert client.get(api, HTTP_AUTHORIZATION=f"Token {new}").status_code == 200
