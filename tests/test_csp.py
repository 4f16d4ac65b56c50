"""Content-Security-Policy and framing on every kind of page.

Every page sends a CSP that allows no inline script, and its HTML has none (no inline
<script>, no on*= handler, no javascript: URL). Worker pages may be framed by the
crowd platforms' origins only; every other page refuses framing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Assignment, Campaign, Worker
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db

MTURK_ORIGINS = ["https://www.mturk.com", "https://workersandbox.mturk.com"]


@dataclass
class World:
    campaign: Campaign
    worker: Worker
    client: Client  # signed in as a staff user who owns the campaign


@pytest.fixture
def world() -> World:
    owner = get_user_model().objects.create_user(
        "owner", password="pw-123456", is_staff=True, is_superuser=True
    )
    campaign = CampaignFactory(
        status=Campaign.Status.LIVE, tasks_per_worker=2, owner=owner, accept_mturk=True
    )
    criterion = CriterionFactory(campaign=campaign)
    for _ in range(3):
        task_with_outputs(campaign=campaign, criterion=criterion)
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    client = Client()
    client.force_login(owner)
    return World(campaign, worker, client)


def _session(w: World) -> str:
    return reverse("annotations:worker-session", args=[w.campaign.slug, worker_token(w.worker)])


def _done_worker_session(w: World) -> str:
    done = WorkerFactory(
        campaign=w.campaign,
        platform="mturk",
        consented_at=timezone.now(),
        stopped=True,
        metadata={"assignment_id": "A1", "turk_submit_to": "https://www.mturk.com"},
    )
    return reverse("annotations:worker-session", args=[w.campaign.slug, worker_token(done)])


# (name, how to get the URL, whether it is a worker page that MTurk may frame)
WORKER_PAGES: list[tuple[str, Callable[[World], str]]] = [
    ("worker-consent", lambda w: f"/w/{w.campaign.slug}/?PROLIFIC_PID=p1"),
    ("worker-task", _session),
    ("worker-stop-page", _done_worker_session),
    (
        "mturk-preview",
        lambda w: f"/w/{w.campaign.slug}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1",
    ),
    ("worker-unknown-study", lambda w: "/w/no-such-study/"),
    ("worker-mistyped-link", lambda w: f"/w/{w.campaign.slug}/s/mistyped/extra/"),
]
OTHER_PAGES: list[tuple[str, Callable[[World], str]]] = [
    ("home", lambda w: "/"),
    ("login", lambda w: "/accounts/login/"),
    ("designer-campaign", lambda w: f"/campaigns/{w.campaign.slug}/"),
    ("designer-settings", lambda w: f"/campaigns/{w.campaign.slug}/settings/"),
    ("designer-criteria", lambda w: f"/campaigns/{w.campaign.slug}/criteria/"),
    ("designer-monitor", lambda w: f"/campaigns/{w.campaign.slug}/monitor/"),
    ("designer-account", lambda w: "/campaigns/account/"),
    ("designer-task-preview", lambda w: f"/w/{w.campaign.slug}/preview/"),
    ("ranking-runs", lambda w: f"/rankings/campaign/{w.campaign.slug}/"),
    ("admin-index", lambda w: "/admin/"),
    ("admin-campaigns", lambda w: "/admin/annotations/campaign/"),
    ("admin-campaign-change", lambda w: f"/admin/annotations/campaign/{w.campaign.pk}/change/"),
    ("api-docs", lambda w: "/api/docs/"),
    ("designer-mistyped-link", lambda w: f"/campaigns/{w.campaign.slug}/nope/"),
]


def _directives(header: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def _inline_scripts(html: str) -> list[str]:
    """Inline script in the HTML: <script> without src, on*= handlers, javascript: URLs."""
    found = [
        tag
        for tag in re.findall(r"<script\b[^>]*>", html, flags=re.IGNORECASE)
        if not re.search(r"\bsrc\s*=", tag, flags=re.IGNORECASE)
    ]
    found += re.findall(r"<[^>]*\son[a-z]+\s*=[^>]*>", html, flags=re.IGNORECASE)
    found += re.findall(r"(?:href|action|src)\s*=\s*[\"']?\s*javascript:", html, flags=re.I)
    return found


@pytest.mark.parametrize(
    "name, url", WORKER_PAGES + OTHER_PAGES, ids=[n for n, _ in WORKER_PAGES + OTHER_PAGES]
)
def test_every_page_has_a_csp_without_inline_script_and_no_inline_script(world, name, url):
    response = world.client.get(url(world))
    assert response.status_code in (200, 404), (name, response.status_code)
    csp = _directives(response["Content-Security-Policy"])
    assert csp["script-src"] == ["'self'"]
    assert csp["default-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in csp["style-src-elem"]
    html = response.content.decode()
    assert "<html" in html
    assert _inline_scripts(html) == []


@pytest.mark.parametrize("name, url", WORKER_PAGES, ids=[n for n, _ in WORKER_PAGES])
def test_worker_pages_may_be_framed_by_mturk_only(world, name, url):
    response = Client().get(url(world))
    assert "X-Frame-Options" not in response
    csp = _directives(response["Content-Security-Policy"])
    assert sorted(csp["frame-ancestors"]) == sorted(MTURK_ORIGINS)


@pytest.mark.parametrize("name, url", OTHER_PAGES, ids=[n for n, _ in OTHER_PAGES])
def test_other_pages_refuse_framing(world, name, url):
    response = world.client.get(url(world))
    assert response["X-Frame-Options"] == "DENY"
    assert _directives(response["Content-Security-Policy"])["frame-ancestors"] == ["'none'"]


def test_worker_form_responses_may_be_framed_too(world):
    """The consent POST's answer (an error page here) is shown in the frame as well."""
    response = Client().post(
        reverse("annotations:worker-start", args=[world.campaign.slug]), {"agree": "on"}
    )
    assert response.status_code == 400
    assert "X-Frame-Options" not in response
    assert "https://www.mturk.com" in response["Content-Security-Policy"]


def test_frame_ancestors_come_from_the_deployment_setting(world, settings):
    settings.WORKER_FRAME_ANCESTORS = ["https://lab.example.org"]
    response = Client().get(_session(world))
    assert _directives(response["Content-Security-Policy"])["frame-ancestors"] == [
        "https://lab.example.org"
    ]
    settings.WORKER_FRAME_ANCESTORS = []
    response = Client().get(_session(world))
    assert _directives(response["Content-Security-Policy"])["frame-ancestors"] == ["'none'"]


def test_the_frame_ancestors_setting_reads_the_environment(monkeypatch):
    import importlib

    import humaneval.settings as project_settings

    monkeypatch.setenv("HUMANEVAL_FRAME_ANCESTORS", "https://a.example,https://b.example")
    try:
        reloaded = importlib.reload(project_settings)
        assert reloaded.WORKER_FRAME_ANCESTORS == ["https://a.example", "https://b.example"]
    finally:
        monkeypatch.delenv("HUMANEVAL_FRAME_ANCESTORS")
        importlib.reload(project_settings)


def test_api_docs_start_up_script_is_a_separate_file(world):
    html = world.client.get("/api/docs/").content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', html)
    start_up = [s for s in scripts if "script=" in s]
    assert len(start_up) == 1
    response = world.client.get(start_up[0].replace("&amp;", "&"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in response.content
    # The Swagger UI files come from the sidecar package: nothing from a CDN.
    assert all(s.startswith("/") for s in scripts)


def test_task_page_still_renders_for_the_worker(world):
    """The CSP changes nothing for a worker's task (htmx config is a meta tag)."""
    html = Client().get(_session(world)).content.decode()
    assert Assignment.objects.filter(worker=world.worker).count() == 1
    assert 'name="htmx-config"' in html and '"includeIndicatorStyles": false' in html
