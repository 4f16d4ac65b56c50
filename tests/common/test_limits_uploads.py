"""One upload limit (HUMANEVAL_UPLOAD_MAX_MB) on every upload path, web and API, enforced
while the body streams: a file just over it is a 413 that says the limit, and the body is
not read past it (security review, item 8)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import (
    MemoryFileUploadHandler,
    TemporaryFileUploadHandler,
)
from django.test import Client
from django.test.client import FakePayload
from django.urls import reverse

from annotations.models import CampaignMembership, Output
from annotations.services.campaigns import campaign_create
from reports.models import MetricScore
from tests.annotations.designer_data import users

pytestmark = pytest.mark.django_db

LIMIT = 1024 * 1024  # 1.0 MB


@pytest.fixture
def world(client: Client, settings: Any) -> tuple[Client, str]:
    settings.IMPORT_UPLOAD_MAX_BYTES = LIMIT
    settings.JOBS_IN_THREAD = False
    owner = users()["owner"]
    campaign = campaign_create(slug="pilot", owner=owner)
    CampaignMembership.objects.get_or_create(
        campaign=campaign, user=owner, defaults={"role": CampaignMembership.Role.OWNER}
    )
    client.force_login(owner)
    return client, campaign.slug


def _file(name: str, size: int) -> SimpleUploadedFile:
    line = b"system,item,metric,score\n"
    return SimpleUploadedFile(name, (line * (size // len(line) + 1))[:size])


# (url name, file field, other fields): every path that takes an uploaded file.
WEB = [
    ("annotations:designer-upload", "files", {}),
    ("annotations:designer-mapped-import", "file", {"action": "import", "preset": "e2e-quality"}),
    ("annotations:designer-mapped-import", "file", {"action": "preview", "preset": "wmt"}),
    ("reports:metrics", "file", {}),
]
API = [
    ("/api/campaigns/{slug}/outputs/", "files", {}),
    ("/api/campaigns/{slug}/ratings/", "file", {"mapping": "e2e-quality"}),
    ("/api/campaigns/{slug}/ratings/", "file", {"mapping": "wmt", "preview": 5}),
    ("/api/campaigns/{slug}/metrics/", "file", {}),
]


def _post(client: Client, url: str, field: str, fields: dict[str, Any], upload: Any) -> Any:
    return client.post(url, {**fields, field: upload})


@pytest.mark.parametrize(("name", "field", "fields"), WEB, ids=lambda v: str(v))
def test_a_web_upload_just_over_the_limit_is_a_413_page_saying_the_limit(
    world, name, field, fields
) -> None:
    client, slug = world
    response = _post(client, reverse(name, args=[slug]), field, fields, _file("big.csv", LIMIT + 1))
    assert response.status_code == 413
    html = response.content.decode()
    assert "<code>big.csv</code>" in html and "limited to 1.0 MB" in html
    assert 'class="brand"' in html  # the site's page
    assert not Output.objects.exists() and not MetricScore.objects.exists()


@pytest.mark.parametrize(("url", "field", "fields"), API, ids=lambda v: str(v))
def test_an_api_upload_just_over_the_limit_is_a_413_in_the_error_shape(
    world, url, field, fields
) -> None:
    client, slug = world
    response = _post(client, url.format(slug=slug), field, fields, _file("big.csv", LIMIT + 1))
    assert response.status_code == 413, response.content
    body = response.json()
    assert body["code"] == "too_large" and body["file"] == "big.csv"
    assert "limited to 1.0 MB" in body["detail"]
    assert not Output.objects.exists() and not MetricScore.objects.exists()


def test_files_over_the_limit_together_are_refused_too(world) -> None:
    client, slug = world
    url = f"/api/campaigns/{slug}/outputs/"
    parts = [_file("a.csv", LIMIT // 2 + 10), _file("b.csv", LIMIT // 2 + 10)]
    response = client.post(url, {"files": parts})
    assert response.status_code == 413
    assert "together" in response.json()["detail"]


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Bytes read from the request body and bytes handed on to be kept (memory or disk)."""
    seen = {"read": 0, "kept": 0}
    read = FakePayload.read

    def counting_read(self: FakePayload, *args: Any, **kwargs: Any) -> bytes:
        data = read(self, *args, **kwargs)
        seen["read"] += len(data)
        return data

    monkeypatch.setattr(FakePayload, "read", counting_read)
    for handler in (MemoryFileUploadHandler, TemporaryFileUploadHandler):
        keep = handler.receive_data_chunk

        def counting_keep(self: Any, raw_data: bytes, start: int, keep: Any = keep) -> Any:
            passed_on = keep(self, raw_data, start)
            if passed_on is None:  # this handler kept the chunk
                seen["kept"] += len(raw_data)
            return passed_on

        monkeypatch.setattr(handler, "receive_data_chunk", counting_keep)
    return seen


@pytest.mark.parametrize("url", ["/api/campaigns/{slug}/metrics/", "/campaigns/{slug}/metrics/"])
def test_the_upload_stops_at_the_limit_it_is_not_read_whole(world, spy, url) -> None:
    """A file 2 MB over the limit (the body still within what the middleware lets through
    to the parser): the handler stops reading at the limit."""
    client, slug = world
    response = client.post(url.format(slug=slug), {"file": _file("big.csv", LIMIT + 2 * LIMIT)})
    assert response.status_code == 413
    assert spy["kept"] <= LIMIT  # never more than the limit in memory or on disk
    assert spy["read"] < LIMIT + 128 * 1024  # the rest of the body was never read


@pytest.mark.parametrize("url", ["/api/campaigns/{slug}/metrics/", "/campaigns/{slug}/metrics/"])
def test_a_body_announced_far_over_the_limit_is_refused_before_it_is_read(world, spy, url) -> None:
    """The 200 MB metrics upload that took a worker to 2.2 GB: refused by its length."""
    client, slug = world
    response = client.generic(
        "POST",
        url.format(slug=slug),
        b"--x\r\n",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(200 * 1024 * 1024),
    )
    assert response.status_code == 413
    assert "limited to 1.0 MB" in response.content.decode()
    assert spy["read"] == 0


@pytest.mark.parametrize("path", ["/api/campaigns/{slug}/", "/campaigns/{slug}/settings/"])
def test_other_bodies_over_their_limit_are_413s(world, path) -> None:
    client, slug = world
    body = b'{"name": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    response = client.generic(
        "PATCH" if path.startswith("/api/") else "POST",
        path.format(slug=slug),
        body,
        content_type="application/json",
    )
    assert response.status_code == 413
    assert "limited to 2.5 MB" in response.content.decode()
