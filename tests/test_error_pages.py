"""Error pages (DEBUG=False): the site's look, what happened, and what to do next.

This module doubles as a URLconf: the project's URLs plus two that fail on purpose.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.test import Client
from django.urls import include, path

from humaneval import urls as project_urls

pytestmark = pytest.mark.django_db


def _boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


def _forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


urlpatterns = [
    path("w/test-boom/", _boom),
    path("w/test-forbidden/", _forbidden),
    path("test-boom/", _boom),
    path("test-forbidden/", _forbidden),
    path("", include("humaneval.urls")),
]
# The project's error handlers (Django reads them from the root URLconf).
handler403 = project_urls.handler403
handler404 = project_urls.handler404
handler500 = project_urls.handler500


@pytest.fixture(autouse=True)
def _production_errors(settings) -> None:
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__


def _looks_like_the_site(html: str) -> None:
    assert "/static/css/humaneval.css" in html
    assert 'class="brand"' in html and "humaneval" in html


def test_404_for_a_worker_says_to_open_the_study_link_again(client):
    response = client.get("/w/some-study/s/abc/extra/")
    assert response.status_code == 404
    html = response.content.decode()
    _looks_like_the_site(html)
    assert "We cannot find this page" in html
    assert "open the study link again" in html
    assert "Answers you already submitted are saved" in html
    assert "Content-Security-Policy" in response


def test_404_for_a_designer_links_home(client):
    response = client.get("/campaigns/nope/really/nope/")
    assert response.status_code == 404
    html = response.content.decode()
    _looks_like_the_site(html)
    assert 'href="/"' in html and "Go to your campaigns" in html
    assert "study link" not in html


def test_500_is_a_page_of_the_site_that_says_what_to_do():
    response = Client(raise_request_exception=False).get("/w/test-boom/")
    assert response.status_code == 500
    html = response.content.decode()
    _looks_like_the_site(html)
    assert "Something went wrong on our side" in html
    assert "reload the page" in html and "answers you already submitted are saved" in html
    assert "a bug" not in html and "Traceback" not in html
    assert "Content-Security-Policy" in response


@pytest.mark.parametrize(
    "url, advice",
    [("/w/test-forbidden/", "open the study link again"), ("/test-forbidden/", "Sign in")],
)
def test_403_says_what_to_do(client, url, advice):
    response = client.get(url)
    assert response.status_code == 403
    html = response.content.decode()
    _looks_like_the_site(html)
    assert "You cannot open this page" in html and advice in html


def test_csrf_failure_page_explains_and_says_what_to_do():
    response = Client(enforce_csrf_checks=True).post(
        "/accounts/login/", {"username": "a", "password": "b"}
    )
    assert response.status_code == 403
    html = response.content.decode()
    _looks_like_the_site(html)
    assert "The form could not be sent" in html
    assert "reload the page" in html
    assert "CSRF verification failed" not in html  # not Django's technical page


def _frame_ancestors(response: HttpResponseBase) -> list[str]:
    for part in response["Content-Security-Policy"].split(";"):
        words = part.split()
        if words and words[0] == "frame-ancestors":
            return words[1:]
    return []


@pytest.mark.parametrize(
    "url, status",
    [
        ("/w/some-study/s/abc/extra/", 404),  # a mistyped or truncated study link
        ("/w/test-forbidden/", 403),
        ("/w/test-boom/", 500),
    ],
)
def test_error_pages_of_worker_links_may_be_framed_by_the_crowd_platforms(url, status, settings):
    """Inside MTurk's iframe the worker sees the page's advice, not a refused frame."""
    settings.WORKER_FRAME_ANCESTORS = ["https://www.mturk.com", "https://lab.example.org"]
    response = Client(raise_request_exception=False).get(url)
    assert response.status_code == status
    assert "X-Frame-Options" not in response
    assert sorted(_frame_ancestors(response)) == [
        "https://lab.example.org",
        "https://www.mturk.com",
    ]


@pytest.mark.parametrize(
    "url, status",
    [("/campaigns/nope/really/nope/", 404), ("/test-forbidden/", 403), ("/test-boom/", 500)],
)
def test_other_error_pages_refuse_framing(url, status):
    response = Client(raise_request_exception=False).get(url)
    assert response.status_code == status
    assert response["X-Frame-Options"] == "DENY"
    assert _frame_ancestors(response) == ["'none'"]
