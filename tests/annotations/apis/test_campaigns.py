"""REST API: permissions over every endpoint, the main flows, JSON errors, the schema."""

from __future__ import annotations

import json
import sys
import types

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from annotations.models import Campaign, CampaignMembership, Output
from ranking.models import RankingRun
from tests.annotations.designer_data import judged_campaign, judged_world

pytestmark = pytest.mark.django_db
Role = CampaignMembership.Role
ORDER = {"viewer": 1, "designer": 2, "owner": 3}


@pytest.fixture
def world():
    return judged_world()


@pytest.fixture
def stubs(monkeypatch):
    """Permission tests check access, not the task design or the ranking engine."""
    # The URLconf imports the real module: load it before the stub takes its place.
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018
    tasks = types.ModuleType("annotations.services.tasks")
    monkeypatch.setattr(tasks, "tasks_build", lambda **kw: {"tasks": 0}, raising=False)
    monkeypatch.setitem(sys.modules, "annotations.services.tasks", tasks)
    monkeypatch.setattr(
        "ranking.apis.runs.ranking_run_create",
        lambda **kw: RankingRun.objects.create(campaign=kw["campaign"], criterion=kw["criterion"]),
    )


def _endpoints(c, run):
    crit = c.criteria.get()
    worker = c.workers.first()
    s = c.slug
    return [
        ("get", f"/api/campaigns/{s}/", READ, None),
        ("patch", f"/api/campaigns/{s}/", WRITE, {"instructions": "Be careful."}),
        ("get", f"/api/campaigns/{s}/criteria/", READ, None),
        ("post", f"/api/campaigns/{s}/criteria/", WRITE, {"preset": "fluency"}),
        ("get", f"/api/campaigns/{s}/criteria/{crit.pk}/", READ, None),
        ("patch", f"/api/campaigns/{s}/criteria/{crit.pk}/", WRITE, {"question": "Q?"}),
        ("delete", f"/api/campaigns/{s}/criteria/{crit.pk}/", WRITE, None),
        ("get", f"/api/campaigns/{s}/systems/", READ, None),
        ("post", f"/api/campaigns/{s}/outputs/", WRITE, {}),
        ("post", f"/api/campaigns/{s}/build/", WRITE, {}),
        ("post", f"/api/campaigns/{s}/launch/", WRITE, None),
        ("post", f"/api/campaigns/{s}/pause/", WRITE, None),
        ("post", f"/api/campaigns/{s}/close/", WRITE, None),
        ("get", f"/api/campaigns/{s}/progress/", READ, None),
        ("get", f"/api/campaigns/{s}/workers/", READ, None),
        ("get", f"/api/campaigns/{s}/workers/{worker.pk}/", READ, None),
        ("patch", f"/api/campaigns/{s}/workers/{worker.pk}/", WRITE, {"flagged": True}),
        ("get", f"/api/campaigns/{s}/judgements/", READ, None),
        ("get", f"/api/campaigns/{s}/export/?criterion={crit.name}&fmt=jsonl", READ, None),
        ("get", f"/api/campaigns/{s}/rankings/", READ, None),
        ("post", f"/api/campaigns/{s}/rankings/", WRITE, {"criterion": crit.name, "runs": 5}),
        ("get", f"/api/rankings/{run.pk}/", READ, None),
        ("get", f"/api/rankings/{run.pk}/result/", READ, None),
        ("get", f"/api/rankings/{run.pk}/export/markdown/", READ, None),
    ]


READ, WRITE = "viewer", "designer"
N = 24


@pytest.mark.parametrize("index", range(N))
@pytest.mark.parametrize("who", ["anonymous", "outsider", "viewer", "designer"])
def test_api_permissions(world, stubs, who, index):
    people, campaign, run = world
    endpoints = _endpoints(campaign, run)
    assert len(endpoints) == N
    method, url, needed, data = endpoints[index]
    client = APIClient()
    if who != "anonymous":
        token = Token.objects.create(user=people[who])
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = (
        getattr(client, method)(url, data, format="json")
        if data is not None
        else getattr(client, method)(url)
    )
    if who == "anonymous":
        assert response.status_code == 401
    elif who == "outsider":
        assert response.status_code == 404
    elif ORDER[who] < ORDER[needed]:
        assert response.status_code == 403
        assert "designer role" in response.json()["detail"]
    else:
        assert response.status_code in (200, 201, 204, 400), (url, response.status_code)
        if response.status_code == 400:
            assert "detail" in response.json() or response.json()


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


@pytest.fixture
def designer_api(world):
    people, campaign, run = world
    client = APIClient()
    client.force_authenticate(people["designer"])
    return client, campaign, run


def test_create_campaign_upload_and_criteria_flow(world):
    people, _, _ = world
    client = APIClient()
    client.force_authenticate(people["owner"])
    created = client.post(
        "/api/campaigns/", {"slug": "api-made", "name": "API made"}, format="json"
    )
    assert created.status_code == 201 and created.json()["status"] == "draft"
    csv_text = b"item_id,input,system,output\n1,name[A],s1,A is.\n1,name[A],s2,A was.\n"
    upload = client.post(
        "/api/campaigns/api-made/outputs/",
        {"files": [SimpleUploadedFile("o.csv", csv_text)]},
        format="multipart",
    )
    assert upload.status_code == 201, upload.content
    assert upload.json()[0]["outputs"] == 2 and upload.json()[0]["file"] == "o.csv"
    crit = client.post("/api/campaigns/api-made/criteria/", {"preset": "grammar"}, format="json")
    assert crit.status_code == 201 and crit.json()["scale"] == "likert"
    systems = client.get("/api/campaigns/api-made/systems/").json()
    assert [s["label"] for s in systems["results"]] == ["s1", "s2"]
    assert all(s["outputs"] == 1 for s in systems["results"])


def test_import_error_is_json_with_file_line_field(designer_api):
    client, campaign, _ = designer_api
    before = Output.objects.filter(item__campaign=campaign).count()
    bad = b"item_id,input,system,output\n9,name[A],s9,\n"
    response = client.post(
        f"/api/campaigns/{campaign.slug}/outputs/",
        {"files": [SimpleUploadedFile("bad.csv", bad)]},
        format="multipart",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["file"] == "bad.csv" and body["line"] == 2 and body["field"] == "output"
    assert "bad.csv, line 2" in body["detail"]
    assert Output.objects.filter(item__campaign=campaign).count() == before


def test_domain_error_is_400_json(designer_api):
    client, campaign, _ = designer_api
    response = client.patch(
        f"/api/campaigns/{campaign.slug}/", {"judgements_per_task": 7}, format="json"
    )
    assert response.status_code == 400
    assert "can no longer change" in response.json()["detail"]
    assert client.post(f"/api/campaigns/{campaign.slug}/pause/").json() == {
        "detail": "A draft campaign cannot be paused.",
        "code": "refused",
    }


def test_lifecycle_and_progress(designer_api):
    client, campaign, _ = designer_api
    assert client.post(f"/api/campaigns/{campaign.slug}/launch/").json()["status"] == "live"
    progress = client.get(f"/api/campaigns/{campaign.slug}/progress/").json()
    assert progress["criteria"][0] == {
        **progress["criteria"][0],
        "criterion": "quality",
        "planned": 12,
        "collected": 12,
    }
    assert progress["comparisons"]["quality"]["alpha"]["beta"] == 12
    assert -1 <= progress["agreement"][0]["preference_alpha"] <= 1
    assert -1 <= progress["agreement"][0]["inter_kappa"] <= 1
    assert "intra_kappa" in progress["agreement"][0]
    assert client.post(f"/api/campaigns/{campaign.slug}/close/").json()["status"] == "closed"
    assert Campaign.objects.get(pk=campaign.pk).status == "closed"


def test_workers_filter_and_exclude(designer_api):
    client, campaign, _ = designer_api
    worker = campaign.workers.get(external_id="PID0002")
    response = client.patch(
        f"/api/campaigns/{campaign.slug}/workers/{worker.pk}/", {"excluded": True}, format="json"
    )
    assert response.json()["excluded"] is True
    listed = client.get(f"/api/campaigns/{campaign.slug}/workers/?excluded=true").json()
    assert [r["worker"]["external_id"] for r in listed["results"]] == ["PID0002"]
    assert listed["results"][0]["tasks_done"] == 4
    # Read-only fields are ignored, not written.
    client.patch(
        f"/api/campaigns/{campaign.slug}/workers/{worker.pk}/", {"external_id": "X"}, format="json"
    )
    worker.refresh_from_db()
    assert worker.external_id == "PID0002"


def test_judgements_paginated_and_filtered(designer_api):
    client, campaign, _ = designer_api
    body = client.get(f"/api/campaigns/{campaign.slug}/judgements/?worker=PID0001").json()
    assert body["count"] == 4
    first = body["results"][0]
    assert first["criterion"] == "quality" and len(first["scores"]) == 5
    assert {s["system"] for s in first["scores"]} == {"alpha", "beta", "gamma", "delta", "epsilon"}
    paged = client.get(f"/api/campaigns/{campaign.slug}/judgements/?page_size=5&page=3").json()
    assert paged["count"] == 12 and len(paged["results"]) == 2 and paged["next"] is None
    bad = client.get(f"/api/campaigns/{campaign.slug}/judgements/?submitted_after=yesterday")
    assert bad.status_code == 400 and "submitted_after" in bad.json()["detail"]


def test_export_is_streamed(designer_api):
    client, campaign, _ = designer_api
    response = client.get(f"/api/campaigns/{campaign.slug}/export/?criterion=quality&fmt=jsonl")
    assert response.status_code == 200 and response.streaming
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 12 and json.loads(lines[0])["criterion"] == "quality"
    missing = client.get(f"/api/campaigns/{campaign.slug}/export/?criterion=nope")
    assert missing.status_code == 400 and "no criterion 'nope'" in missing.json()["detail"]


def test_schema_validates_and_docs_render(world):
    from openapi_spec_validator import validate

    people, _, _ = world
    client = APIClient()
    client.force_authenticate(people["viewer"])
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    validate(schema)
    paths = schema["paths"]
    for path in (
        "/api/campaigns/",
        "/api/campaigns/{slug}/outputs/",
        "/api/campaigns/{slug}/rankings/",
        "/api/rankings/{id}/result/",
        "/api/auth/token/",
    ):
        assert any(p.replace("{pk}", "{id}") == path for p in paths), path
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()
    # A way back to the site from the API's documentation.
    assert b'<a href="/">' in docs.content and b"Back to humaneval" in docs.content


# The error contract: one JSON shape, documented; bad query values are 400s -----------------

ERROR_KEYS = {"detail", "code"}


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) >= ERROR_KEYS and body["code"] == code, body
    assert set(body) <= {"detail", "code", "fields", "file", "line", "field"}
    return body


def test_validation_errors_name_their_fields_in_the_one_shape(designer_api):
    client, campaign, _ = designer_api
    body = _error(
        client.patch(f"/api/campaigns/{campaign.slug}/", {"tasks_per_worker": -1}, format="json"),
        400,
        "invalid",
    )
    assert body["fields"] == {
        "tasks_per_worker": ["Ensure this value is greater than or equal to 0."]
    }
    assert body["detail"].startswith("tasks_per_worker: Ensure this value")
    body = _error(
        client.post(f"/api/campaigns/{campaign.slug}/criteria/", {"scale": "x"}, format="json"),
        400,
        "invalid",
    )
    assert "scale" in body["fields"]


def test_null_json_setting_and_nul_characters_are_400s(designer_api):
    client, campaign, _ = designer_api
    crit = campaign.criteria.get()
    url = f"/api/campaigns/{campaign.slug}/criteria/{crit.pk}/"
    body = _error(client.patch(url, {"scale_settings": "null"}, format="multipart"), 400, "invalid")
    assert body["fields"] == {"scale_settings": ["This field may not be null."]}
    body = _error(
        client.patch(url, {"scale_settings": {"a\x00": 1}}, format="json"), 400, "invalid"
    )
    assert "Null characters" in body["fields"]["scale_settings"][0]


@pytest.mark.parametrize(
    ("sent", "where"),
    [
        ('{"a": "x\\u0000"}', "The value at 'a'"),
        ('{"a\\u0000": 1}', "The value at 'a\\0'"),
        ('{"a": [1, {"b": "\\u0000"}]}', "The value at 'a[1].b'"),
        ('"\\u0000"', "The value contains"),
    ],
)
def test_a_nul_inside_a_json_column_sent_as_form_data_is_a_400_naming_where(
    designer_api, sent, where
):
    # Form data carries the JSON as text (the \u0000 escape passes the body check); the
    # JSON column's field finds the NUL with the one walker of common.nul.
    client, campaign, _ = designer_api
    crit = campaign.criteria.get()
    url = f"/api/campaigns/{campaign.slug}/criteria/{crit.pk}/"
    body = _error(client.patch(url, {"scale_settings": sent}, format="multipart"), 400, "invalid")
    (message,) = body["fields"]["scale_settings"]
    assert message.startswith(where) and "NUL character (U+0000)" in message, message


def test_unmatched_api_paths_are_json_404s(designer_api):
    client, campaign, _ = designer_api
    for method, url in [
        ("get", "/api/nothing-here/"),
        ("post", "/api/nothing-here/"),
        ("get", "/api/campaigns/ünïcode/"),
        ("post", "/api/rankings/null/cancel/"),
        ("get", f"/api/campaigns/{campaign.slug}/criteria/abc/"),
    ]:
        _error(getattr(client, method)(url), 404, "not_found")
    _error(client.get("/api/campaigns/no-such-campaign/"), 404, "not_found")
    # A path that only lacks its final slash still redirects, as elsewhere on the site.
    redirect = client.get("/api/campaigns?status=live")
    assert redirect.status_code == 301 and redirect["Location"] == "/api/campaigns/?status=live"


@pytest.mark.parametrize(
    "query, field",
    [
        ("page=0", "page"),
        ("page=abc", "page"),
        ("page=-3", "page"),
        ("page_size=-1", "page_size"),
        ("page_size=0", "page_size"),
        ("page_size=1001", "page_size"),
        ("page_size=ten", "page_size"),
        ("submitted_after=yesterday", "submitted_after"),
    ],
)
def test_bad_page_and_query_values_are_400s(designer_api, query, field):
    client, campaign, _ = designer_api
    body = _error(client.get(f"/api/campaigns/{campaign.slug}/judgements/?{query}"), 400, "invalid")
    assert list(body["fields"]) == [field] and field in body["detail"]


def test_bad_filter_values_are_400s_and_a_page_past_the_end_a_404(designer_api):
    client, campaign, _ = designer_api
    s = campaign.slug
    assert "status" in _error(client.get("/api/campaigns/?status=nope"), 400, "invalid")["fields"]
    body = _error(client.get(f"/api/campaigns/{s}/workers/?flagged=maybe"), 400, "invalid")
    assert list(body["fields"]) == ["flagged"]
    _error(client.get(f"/api/campaigns/{s}/workers/?platform=nope"), 400, "invalid")
    _error(client.get(f"/api/campaigns/{s}/export/"), 400, "invalid")
    _error(client.get(f"/api/campaigns/{s}/export/?criterion=quality&fmt=pdf"), 400, "invalid")
    body = _error(client.get(f"/api/campaigns/{s}/judgements/?page=99"), 404, "not_found")
    assert "no page 99" in body["detail"] and "the last is 1" in body["detail"]
    assert client.get(f"/api/campaigns/{s}/workers/?flagged=false").status_code == 200


def test_authentication_and_permission_errors_have_the_shape(world):
    people, campaign, _ = world
    _error(APIClient().get("/api/campaigns/"), 401, "not_authenticated")
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token nope")
    _error(bad.get("/api/campaigns/"), 401, "authentication_failed")
    viewer = APIClient()
    viewer.force_authenticate(people["viewer"])
    body = _error(viewer.post(f"/api/campaigns/{campaign.slug}/launch/"), 403, "permission_denied")
    assert "designer role" in body["detail"]
    designer = APIClient()
    designer.force_authenticate(people["designer"])
    _error(designer.put(f"/api/campaigns/{campaign.slug}/"), 405, "method_not_allowed")


def test_an_unexpected_error_is_a_json_500_without_internals(designer_api, monkeypatch):
    client, campaign, _ = designer_api

    def broken(**kwargs):
        raise RuntimeError("/srv/secret/path exploded")

    monkeypatch.setattr("annotations.apis.campaigns.monitoring.campaign_progress", broken)
    client.raise_request_exception = False
    body = _error(client.get(f"/api/campaigns/{campaign.slug}/progress/"), 500, "server_error")
    assert "/srv" not in body["detail"]


def test_every_operation_documents_its_errors_in_the_one_shape(world):
    people, _, _ = world
    client = APIClient()
    client.force_authenticate(people["viewer"])
    schema = client.get("/api/schema/?format=json").json()
    error_ref = "#/components/schemas/Error"
    assert set(schema["components"]["schemas"]["Error"]["required"]) == {"detail", "code"}
    operations = [
        (path, method, op)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if method in ("get", "post", "patch", "put", "delete")
    ]
    assert len(operations) >= 25
    for path, method, op in operations:
        expected = {"400", "401", "404"}
        assert expected <= set(op["responses"]), (method, path, sorted(op["responses"]))
        for code, response in op["responses"].items():
            if code.startswith(("4", "5")):
                assert response["content"]["application/json"]["schema"] == {"$ref": error_ref}
    token = schema["paths"]["/api/auth/token/"]["post"]["responses"]
    assert {"200", "400", "401", "429"} <= set(token)
    judgements = schema["paths"]["/api/campaigns/{slug}/judgements/"]["get"]
    params = {p["name"]: p for p in judgements["parameters"]}
    assert params["page"]["schema"]["minimum"] == 1
    assert params["page_size"]["schema"]["maximum"] == 1000
    assert params["submitted_after"]["schema"]["format"] == "date-time"


def test_nested_validation_messages_are_flattened_to_dotted_fields():
    from common.api import _field_messages, _summary

    detail = {
        "name": ["Too long."],
        "settings": {"non_field_errors": ["Bad settings."], "levels": ["Not a list."]},
        "rows": [{}, {"score": ["Not a number."]}],
        "non_field_errors": ["Give a preset, or a name and a question."],
    }
    fields = _field_messages(detail)
    assert fields == {
        "name": ["Too long."],
        "settings": ["Bad settings."],
        "settings.levels": ["Not a list."],
        "rows[1].score": ["Not a number."],
        "non_field_errors": ["Give a preset, or a name and a question."],
    }
    assert _summary(fields) == (
        "name: Too long.; settings: Bad settings.; settings.levels: Not a list.; "
        "rows[1].score: Not a number.; Give a preset, or a name and a question."
    )
