"""Private data stays out of caches: every authenticated response is ``Cache-Control:
private, no-store`` (pages, exports, API), public static files keep their caching, and
the API's token endpoint sets no session cookie."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils.cache import get_max_age
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from annotations.models import CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign

pytestmark = pytest.mark.django_db


def _private(response) -> bool:
    control = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= control and "public" not in control


@pytest.fixture
def world():
    owner = get_user_model().objects.create(username="owner")
    campaign = judged_campaign(owner=owner, n_workers=2)
    viewer = get_user_model().objects.create(username="viewer")
    add_member(campaign, viewer, CampaignMembership.Role.VIEWER)
    return owner, viewer, campaign


def _pages(slug: str) -> list[str]:
    return [
        "/",
        reverse("annotations:designer-campaign", args=[slug]),
        reverse("annotations:designer-payments", args=[slug]),
        reverse("annotations:designer-payments-export", args=[slug, "prolific-bonus"]),
        reverse("annotations:designer-payments-export", args=[slug, "mturk-review"]),
        reverse("annotations:designer-export", args=[slug]) + "?criterion=quality&format=csv",
        reverse("annotations:designer-export", args=[slug]) + "?criterion=quality&format=jsonl",
        f"/api/campaigns/{slug}/",
        "/api/campaigns/",
    ]


def test_every_page_export_and_api_response_of_a_signed_in_user_is_private(client, world):
    _owner, viewer, campaign = world
    client.force_login(viewer)
    for url in _pages(campaign.slug):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        assert _private(response), (url, response.get("Cache-Control"))
    # A refusal is private too (it says the user has no access).
    refused = client.post(reverse("annotations:designer-settings", args=[campaign.slug]), {})
    assert refused.status_code == 403 and _private(refused)


def test_api_responses_to_a_token_are_private(world):
    _owner, viewer, campaign = world
    token = Token.objects.create(user=viewer)
    api = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
    for url in (f"/api/campaigns/{campaign.slug}/", "/api/campaigns/"):
        response = api.get(url)
        assert response.status_code == 200 and _private(response), url
    # A wrong token: still a credentialled request, still kept out of caches.
    wrong = APIClient(HTTP_AUTHORIZATION="Token nope").get("/api/campaigns/")
    assert wrong.status_code == 401 and _private(wrong)


def test_public_static_files_keep_their_caching(settings, world):
    # WhiteNoise serves from the app's static folders (as `make run` does); it reads its
    # settings when the client's handler first builds the middleware.
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_MAX_AGE = 3600
    _owner, viewer, _campaign = world
    client = Client()
    client.force_login(viewer)
    response = client.get("/static/css/humaneval.css")
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")
    assert (get_max_age(response) or 0) > 0


def test_anonymous_public_pages_are_left_alone():
    response = Client().get("/accounts/password_reset/")
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


def test_the_token_endpoint_sets_no_session_cookie_and_still_counts_as_a_sign_in(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = get_user_model().objects.create_user("ada", password="right-password-1")
    client = APIClient()
    for attempt in range(3):
        client.post("/api/auth/token/", {"username": "ada", "password": f"wrong-{attempt}"})
    assert AccessAttempt.objects.get().failures_since_start == 3
    response = client.post("/api/auth/token/", {"username": "ada", "password": "right-password-1"})
    assert response.status_code == 200 and response.json()["token"]
    assert settings.SESSION_COOKIE_NAME not in response.cookies
    assert not client.cookies.get(settings.SESSION_COOKIE_NAME)
    assert _private(response)
    # What the sign-in signal does still happens: last_login is set. (The failures stay
    # counted: a right password does not reset an address's count, tests/common/test_auth.py.)
    assert AccessAttempt.objects.get().failures_since_start == 3
    user.refresh_from_db()
    assert user.last_login is not None
    # Nothing signed the client in: without the token it is a stranger to the API.
    assert client.get("/api/campaigns/").status_code == 401
