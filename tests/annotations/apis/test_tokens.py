"""The token endpoint (annotations/apis/tokens.py); the campaign list shows one's own."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db


def test_token_endpoint_and_campaign_list_only_shows_own(world):
    people, campaign, _ = world
    people["viewer"].set_password("secret-pass-1")
    people["viewer"].save()
    client = APIClient()
    token = client.post(
        "/api/auth/token/", {"username": "viewer", "password": "secret-pass-1"}, format="json"
    ).json()["token"]
    judged_campaign(owner=people["outsider"], slug="other", n_items=1, n_workers=1)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    body = client.get("/api/campaigns/").json()
    assert body["count"] == 1 and body["results"][0]["slug"] == campaign.slug


def test_signing_in_again_returns_the_same_token(world):
    from rest_framework.authtoken.models import Token

    people, _campaign, _ = world
    people["viewer"].set_password("secret-pass-1")
    people["viewer"].save()
    client = APIClient()
    keys = [
        client.post(
            "/api/auth/token/", {"username": "viewer", "password": "secret-pass-1"}, format="json"
        ).json()["token"]
        for _ in range(2)
    ]
    assert keys[0] == keys[1] == Token.objects.get(user=people["viewer"]).key
