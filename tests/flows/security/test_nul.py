"""A NUL character is refused at input with a clear 400, on every database.

PostgreSQL cannot store NUL in text or jsonb: a NUL that reached a query was a 500 (and
on SQLite it was stored, to break exports later). Query strings, form bodies and paths
are checked by ``common.middleware.RefuseNulMiddleware``, API JSON bodies by the API's
JSON parser, and uploaded files by the importers (naming the file, line and field).
"""

from __future__ import annotations

import html
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Assignment, Campaign, Worker
from tests.annotations.designer_data import judged_campaign
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@dataclass
class World:
    client: Client  # the owner of both campaigns, signed in
    live: Campaign  # judged, live, takes Prolific workers
    draft: Campaign  # takes uploads
    worker: Worker
    assignment: Assignment


@pytest.fixture
def world() -> World:
    owner = User.objects.create(username="owner")
    live = judged_campaign(owner=owner, slug="nul-live")
    Campaign.objects.filter(pk=live.pk).update(status=Campaign.Status.LIVE, accept_prolific=True)
    draft = CampaignFactory(slug="nul-draft", owner=owner)
    worker = Worker.objects.create(
        campaign=live,
        platform=Worker.Platform.PROLIFIC,
        external_id="p1",
        consented_at=timezone.now(),
    )
    task = live.tasks.order_by("pk").first()
    assert task is not None
    assignment = Assignment.objects.create(
        worker=worker,
        task=task,
        item=task.item,
        criterion=task.criterion,
        started_at=timezone.now(),
    )
    client = Client()
    client.force_login(owner)
    return World(client, live, draft, worker, assignment)


def _jsonl(text: str) -> io.BytesIO:
    row = {"item_id": "1", "input": "in", "system": "s", "output": text}
    upload = io.BytesIO((json.dumps(row) + "\n").encode())
    upload.name = "outputs.jsonl"
    return upload


Case = Callable[[World], Any]

CASES: dict[str, Case] = {
    "page query string": lambda w: w.client.get(
        reverse("ranking:campaign-means", args=[w.live.slug]) + "?criterion=quality%00"
    ),
    "API query string": lambda w: w.client.get(
        reverse("api-campaign-rankings", args=[w.live.slug]) + "?criterion=quality%00"
    ),
    "path": lambda w: w.client.get(f"/campaigns/{w.live.slug}/languages/de%00/"),
    "crowd link": lambda w: Client().get(
        reverse("annotations:worker-entry", args=[w.live.slug])
        + "?PROLIFIC_PID=5f0c%00&STUDY_ID=s1&SESSION_ID=x1"
    ),
    "worker autosave": lambda w: Client().post(
        reverse(
            "annotations:worker-draft",
            args=[w.live.slug, worker_token(w.worker), w.assignment.pk],
        ),
        {"score_0": "12\x00"},
    ),
    "API JSON body": lambda w: w.client.patch(
        reverse("api-datasheet", args=[w.live.slug]),
        json.dumps({"answers": {"5.1": "funded\x00"}}),
        content_type="application/json",
    ),
    "API JSON body, nested key": lambda w: w.client.post(
        reverse("api-campaign-rankings", args=[w.live.slug]),
        json.dumps({"criterion": "quality", "where": {"domain\x00": "x"}}),
        content_type="application/json",
    ),
    "API upload": lambda w: w.client.post(
        reverse("api-outputs", args=[w.draft.slug]), {"files": [_jsonl("text\x00")]}
    ),
    "web upload": lambda w: w.client.post(
        reverse("annotations:designer-upload", args=[w.draft.slug]), {"files": [_jsonl("t\x00")]}
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_nul_is_refused_with_a_clear_400(world, case):
    response = CASES[case](world)
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert b"NUL" in response.content, response.content[:500]


def test_the_upload_error_names_the_file_line_and_field(world):
    response = CASES["API upload"](world)
    body = json.loads(response.content)
    assert body["code"] == "import_error" and body["file"] == "outputs.jsonl"
    assert body["line"] == 1 and body["field"] == "output"
    assert "NUL character" in body["detail"]
    page = CASES["web upload"](world).content.decode()
    assert "outputs.jsonl" in page and "NUL character" in page


def test_a_query_string_nul_is_named(world):
    response = CASES["API query string"](world)
    body = json.loads(response.content)
    # The request-bounds middleware (common.middleware) answers in the API's error shape,
    # naming the parameter and the character.
    assert response.status_code == 400 and body["code"] == "invalid"
    assert "'criterion'" in body["detail"] and "NUL" in body["detail"]
    assert list(body["fields"]) == ["criterion"]
    page = CASES["page query string"](world)
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")
    assert "'criterion'" in html.unescape(page.content.decode()) and b"NUL" in page.content


def test_a_nul_in_a_repeated_parameter_is_found(world):
    url = reverse("annotations:designer-export", args=[world.live.slug])
    response = world.client.get(url + "?criterion=quality&where=a%3Db&where=c%3Dd%00")
    assert response.status_code == 400
    assert "'where'" in html.unescape(response.content.decode())


def test_a_metric_file_with_a_nul_names_the_line_and_field():
    from common.errors import ImportFileError
    from reports.core.metric_files import parse_metric_file

    data = b'{"system": "a", "metric": "bleu", "score": 0.5}\n{"system": "b\\u0000", "metric": "bleu", "score": 0.4}\n'
    with pytest.raises(ImportFileError) as caught:
        parse_metric_file(data, file="metrics.jsonl")
    error = caught.value
    assert (error.file, error.line, error.field) == ("metrics.jsonl", 2, "system")
    assert "NUL character" in str(error)


def test_a_mapped_rating_file_with_a_nul_names_the_line_and_field(tmp_path):
    from annotations.importing.parsers.mapped import parse_mapped
    from annotations.importing.parsers.mapped.mapping import mapping_from_dict
    from common.errors import ImportFileError

    path = tmp_path / "r.jsonl"
    good = {"w": "1", "i": "x", "s1": "a", "s2": "b", "q1": 1, "q2": 2}
    path.write_text(
        json.dumps(good) + "\n" + json.dumps({**good, "w": "w\x00"}) + "\n", encoding="utf-8"
    )
    mapping = mapping_from_dict(
        {
            "format": "jsonl",
            "worker": "w",
            "item": "i",
            "slots": 2,
            "system": "s{i}",
            "criteria": [{"name": "q", "score": "q{i}"}],
        }
    )
    with pytest.raises(ImportFileError) as caught:
        parse_mapped(path, mapping)
    assert (caught.value.line, caught.value.field) == (2, "w")
    assert "NUL character" in str(caught.value)
