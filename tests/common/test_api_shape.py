"""The API's one error shape, its schema and pagination (common/api.py), on real endpoints."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.annotations.designer_data import judged_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return judged_world()


@pytest.fixture
def designer_api(world):
    people, campaign, run = world
    client = APIClient()
    client.force_authenticate(people["designer"])
    return client, campaign, run


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
        client.patch(
            f"/api/campaigns/{campaign.slug}/", {"tasks_per_worker": "many"}, format="json"
        ),
        400,
        "invalid",
    )
    assert body["fields"] == {"tasks_per_worker": ["A valid integer is required."]}
    assert body["detail"].startswith("tasks_per_worker: A valid integer")
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

    monkeypatch.setattr("annotations.apis.campaigns.monitor_selectors.campaign_progress", broken)
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
