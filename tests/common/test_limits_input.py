"""No input reaches a query or a parser unbounded (security review, item 9): a NUL in a
path, query string or form field, JSON nested too deep or a body too large are 4xx
answers in the site's error shape, never a 500 (PostgreSQL refuses NUL in text, so these
run on SQLite and on PostgreSQL). Every URL of the URLconf is enumerated, so a new
endpoint is covered the day it lands."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

from annotations.models import CampaignMembership
from common.limits import JSON_MAX_DEPTH
from common.parsers import json_check
from tests.annotations.designer_data import judged_world

pytestmark = pytest.mark.django_db

CONVERTER = re.compile(r"<(?:(?P<kind>\w+):)?\w+>")
VALUES = {"slug": "{slug}", "int": "{pk}", "id": "{pk}", "str": "csv", "path": "x", None: "x"}


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    """Every URL of the URLconf with its parameters filled in (``{slug}``/``{pk}`` left to
    fill); regex patterns with groups (the admin's per-app index) are left out."""
    for entry in patterns:
        pattern = entry.pattern
        if isinstance(pattern, RoutePattern):
            part = CONVERTER.sub(lambda m: VALUES[m.group("kind")], str(pattern))
        elif isinstance(pattern, RegexPattern):
            regex = str(pattern)
            if "(" in regex:
                continue
            part = regex.lstrip("^").rstrip("$").replace(r"[\s\S]*", "x").replace("\\", "")
        else:  # pragma: no cover - Django has only these two
            continue
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + part)
        elif isinstance(entry, URLPattern):
            yield "/" + prefix + part


ROUTES = sorted(set(_routes(get_resolver().url_patterns)))


def test_the_enumeration_finds_the_urlconf() -> None:
    for route in ("/w/{slug}/", "/api/campaigns/{slug}/export/", "/admin/", "/accounts/login/"):
        assert route in ROUTES
    assert len(ROUTES) > 80


@pytest.fixture
def world() -> dict[str, Any]:
    _people, campaign, run = judged_world()
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    CampaignMembership.objects.create(
        campaign=campaign, user=root, role=CampaignMembership.Role.OWNER
    )
    client = Client()
    client.force_login(root)
    return {"client": client, "slug": campaign.slug, "pk": run.pk}


def _url(route: str, world: dict[str, Any]) -> str:
    return route.format(slug=world["slug"], pk=world["pk"])


def _refused(response: Any, path: str, field: str) -> None:
    assert response.status_code == 400, (path, response.status_code)
    if path.startswith("/api/"):
        body = response.json()
        assert body["code"] == "invalid" and field in body["fields"], body
        assert "NUL" in body["detail"]
    else:
        html = response.content.decode()
        assert 'class="brand"' in html and "NUL" in html, html[:300]


def _each(routes: list[str], check: Any) -> None:
    """Run ``check`` on every route; fail once, listing every route that failed."""
    failed = []
    for route in routes:
        try:
            check(route)
        except AssertionError as exc:
            failed.append(f"{route}: {exc}")
    assert not failed, "\n".join(failed)


def test_a_nul_in_the_query_string_is_a_400_everywhere(world) -> None:
    def check(route: str) -> None:
        path = _url(route, world)
        for client in (world["client"], Client()):  # signed in, and not
            response = client.get(path, {"where": "a\x00b", "criterion": "a\x00b"})
            _refused(response, path, "where")

    _each(ROUTES, check)


def test_a_nul_in_a_form_field_is_a_400_on_every_page(world) -> None:
    def check(route: str) -> None:
        path = _url(route, world)
        _refused(world["client"].post(path, {"name": "a\x00b"}), path, "name")

    _each([r for r in ROUTES if not r.startswith("/api/")], check)


def test_the_worker_entry_and_the_csv_export_refuse_a_nul(world) -> None:
    """The two reported ones: the public study link, and an export cut off mid-stream."""
    slug = world["slug"]
    response = Client().get(f"/w/{slug}/?PROLIFIC_PID=a%00b")
    _refused(response, f"/w/{slug}/", "PROLIFIC_PID")
    # The error page of a study link may be framed by the crowd platforms, as the others.
    assert "X-Frame-Options" not in response
    export = world["client"].get(f"/campaigns/{slug}/export/?where=a%3Db%00")
    _refused(export, "/campaigns/", "where")


@pytest.mark.parametrize("path", ["/invitations/a%00b/", "/w/{slug}/s/a%00b/"])
def test_a_nul_in_the_path_is_a_400(path, world) -> None:
    response = world["client"].get(_url(path, world))
    assert response.status_code == 400


def _nested(depth: int) -> str:
    return '{"name": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (_nested(1000), 400, f"deeper than {JSON_MAX_DEPTH}"),
        (_nested(100_000), 400, f"deeper than {JSON_MAX_DEPTH}"),
        ('{"name": "a\\u0000b"}', 400, "NUL"),
        ('{"name": "a\\ud800b"}', 400, "surrogate"),
        ('{"a\\u0000": 1}', 400, "NUL"),
        ('{"name": "' + "x" * (10 * 1024 * 1024) + '"}', 413, "limited to 2.5 MB"),
    ],
    ids=["1000-deep", "100000-deep", "nul", "surrogate", "nul-key", "10MB"],
)
@pytest.mark.parametrize(
    ("method", "route"),
    [
        ("patch", "/api/campaigns/{slug}/"),
        ("post", "/api/campaigns/"),
        ("post", "/api/campaigns/{slug}/rankings/"),
        ("patch", "/api/campaigns/{slug}/datasheet/"),
        ("post", "/api/campaigns/{slug}/rating-mappings/"),
    ],
)
def test_json_bodies_are_bounded(world, method, route, body, status, words) -> None:
    path = _url(route, world)
    response = getattr(world["client"], method)(path, body, content_type="application/json")
    assert response.status_code == status, response.content[:300]
    payload = response.json()
    assert set(payload) >= {"detail", "code"} and words in payload["detail"]


def test_the_json_check_is_iterative_and_names_where() -> None:
    deep: Any = []
    for _ in range(JSON_MAX_DEPTH - 2):
        deep = [deep]
    json_check({"a": deep})  # JSON_MAX_DEPTH levels (the object and its lists): fine
    with pytest.raises(Exception, match="deeper"):
        json_check({"a": [deep]})
    with pytest.raises(Exception) as caught:
        json_check({"mapping": {"columns": [{"x": "a\x00"}]}})
    assert "mapping.columns[0].x" in str(caught.value.detail)  # type: ignore[attr-defined]


def test_form_bodies_to_the_api_with_a_nul_are_never_a_500(world) -> None:
    """Form and multipart bodies, read by the API's parsers: refused where a view reads
    them (a 400 in the error shape), never a 500."""

    def check(route: str) -> None:
        path = _url(route, world)
        for body in ({"name": "a\x00b"}, {"a\x00": "b"}):
            response = world["client"].post(path, body)
            assert response.status_code < 500, (path, response.content[:200])
            if response.status_code == 400:
                assert set(response.json()) >= {"detail", "code"}

    _each([r for r in ROUTES if r.startswith("/api/")], check)


@pytest.mark.parametrize("name", ["sessionid", "csrftoken", "hew"])
def test_a_cookie_holding_a_nul_is_dropped_not_a_500(world, name) -> None:
    client = Client()
    client.cookies[name] = "abcdefgh\x00ijklmnop"
    assert client.get("/").status_code in (200, 302)
    assert client.get(f"/w/{world['slug']}/").status_code < 500


DEEP_LINE = b"[" * 100_000 + b"]" * 100_000 + b"\n"


@pytest.mark.parametrize(
    ("route", "fields"),
    [
        ("/api/campaigns/{slug}/outputs/", {"files": "deep.jsonl"}),
        ("/api/campaigns/{slug}/metrics/", {"file": "deep.jsonl"}),
        ("/api/campaigns/{slug}/ratings/", {"file": "deep.jsonl", "mapping": "humaneval-jsonl"}),
        ("/api/campaigns/{slug}/ratings/", {"file": "deep.jsonl", "mapping_json": "deep"}),
    ],
    ids=["outputs", "metrics", "ratings", "mapping"],
)
def test_uploaded_json_nested_too_deep_is_a_400_not_a_500(world, route, fields) -> None:
    """JSONL files and a mapping's JSON: the same depth bound as the API's bodies."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from annotations.models import Campaign

    Campaign.objects.filter(slug=world["slug"]).update(status=Campaign.Status.DRAFT)
    body: dict[str, Any] = {}
    for name, value in fields.items():
        if value == "deep.jsonl":
            body[name] = SimpleUploadedFile("deep.jsonl", DEEP_LINE)
        elif value == "deep":
            body[name] = DEEP_LINE.decode()
        else:
            body[name] = value
    response = world["client"].post(_url(route, world), body)
    assert response.status_code == 400, response.content[:300]
    assert "nested too deeply" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/api/campaigns/", "/w/{slug}/"])
def test_too_many_query_parameters_are_a_400_in_the_error_shape(world, path) -> None:
    query = "&".join(f"p{i}=1" for i in range(1001))
    response = world["client"].get(f"{_url(path, world)}?{query}")
    assert response.status_code == 400
    if path.startswith("/api/"):
        assert response.json()["code"] == "invalid"
    else:
        assert b'class="brand"' in response.content
