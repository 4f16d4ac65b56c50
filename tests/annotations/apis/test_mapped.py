"""Mapped ratings through the API (annotations/apis/mapped.py): import, preview, errors, jobs, saved mappings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from annotations.models import ImportJob, Judgement, RatingMapping
from tests.annotations.importing.conftest import rows3, three_slot_mapping, write_csv
from tests.annotations.importing.parsers.test_presets import FILES

pytestmark = pytest.mark.django_db


def _csv(tmp_path: Path, rows: list[list[str]] | None = None) -> bytes:
    return write_csv(tmp_path / "r.csv", rows or rows3()).read_bytes()


# --------------------------------------------------------------------------------------
# API


def test_api_import_with_json_mapping(tmp_path: Path, people_campaign, api_as) -> None:
    people, campaign = people_campaign
    response = api_as(people["designer"]).post(
        "/api/campaigns/byo/ratings/",
        {
            "file": SimpleUploadedFile("mine.csv", _csv(tmp_path)),
            "mapping_json": json.dumps(three_slot_mapping()),
        },
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert response.json()["judgements"] == 4 and response.json()["file"] == "mine.csv"
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 4


def _wmt_preview(tmp_path: Path, api: Any, rows: int) -> Any:
    return api.post(
        "/api/campaigns/byo/ratings/",
        {
            "file": SimpleUploadedFile("w.csv", FILES["wmt"](tmp_path).read_bytes()),
            "mapping": "wmt",
            "preview": rows,
        },
        format="multipart",
    )


def test_api_preview_writes_nothing(tmp_path: Path, people_campaign, api_as) -> None:
    people, _campaign = people_campaign
    response = _wmt_preview(tmp_path, api_as(people["designer"]), 1)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["slots"] == 3 and len(body["judgements"]) == 1
    assert [o["system"] for o in body["judgements"][0]["outputs"]] == ["a", "b", "c"]
    # the scale each criterion would get, as the page's preview says it
    assert len(body["scales"]) == 1 and body["scales"][0].startswith("ranking: new")
    assert not Judgement.objects.exists()


def test_api_preview_of_no_rows_is_refused_and_writes_nothing(
    tmp_path: Path, people_campaign, api_as
) -> None:
    """``preview=0`` imported the file (201), where a preview was asked for."""
    people, _campaign = people_campaign
    response = _wmt_preview(tmp_path, api_as(people["designer"]), 0)
    assert response.status_code == 400, response.content
    assert "preview" in response.json()["fields"]
    assert not Judgement.objects.exists()


def test_api_errors(tmp_path: Path, people_campaign, api_as) -> None:
    people, _campaign = people_campaign
    rows = rows3()
    rows[2][3] = ""  # team1 empty: the row has no outputs
    client = api_as(people["designer"])
    response = client.post(
        "/api/campaigns/byo/ratings/",
        {
            "file": SimpleUploadedFile("mine.csv", _csv(tmp_path, rows)),
            "mapping_json": json.dumps(three_slot_mapping()),
        },
        format="multipart",
    )
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["file"], body["line"], body["field"]) == (
        "import_error",
        "mine.csv",
        3,
        "team1",
    )
    assert "/tmp" not in json.dumps(body)
    response = client.post(
        "/api/campaigns/byo/ratings/",
        {"file": SimpleUploadedFile("m.csv", b"a\n"), "mapping": "nope"},
        format="multipart",
    )
    assert response.status_code == 400 and "no mapping 'nope'" in response.json()["detail"]
    response = client.post(
        "/api/campaigns/byo/ratings/",
        {"file": SimpleUploadedFile("m.csv", b"a\n")},
        format="multipart",
    )
    assert response.status_code == 400
    viewer = api_as(people["viewer"]).post(
        "/api/campaigns/byo/ratings/",
        {"file": SimpleUploadedFile("m.csv", b"a\n"), "mapping": "wmt"},
        format="multipart",
    )
    assert viewer.status_code == 403
    assert not Judgement.objects.exists()


def test_api_large_upload_is_a_job(tmp_path: Path, people_campaign, settings, api_as) -> None:
    settings.IMPORT_INLINE_MAX_BYTES = 10
    settings.JOBS_IN_THREAD = False
    people, _campaign = people_campaign
    response = api_as(people["designer"]).post(
        "/api/campaigns/byo/ratings/",
        {
            "file": SimpleUploadedFile("mine.csv", _csv(tmp_path)),
            "mapping_json": json.dumps(three_slot_mapping()),
        },
        format="multipart",
    )
    assert response.status_code == 202, response.content
    job = ImportJob.objects.get(pk=response.json()["job"])
    assert job.kind == "ratings" and job.options["mapping"]["system"] == "team{i}"


def test_api_mappings(people_campaign, api_as) -> None:
    people, campaign = people_campaign
    client = api_as(people["designer"])
    response = client.post(
        "/api/campaigns/byo/rating-mappings/",
        {"name": "mine", "mapping": three_slot_mapping()},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert RatingMapping.objects.get(campaign=campaign).name == "mine"
    listed = api_as(people["viewer"]).get("/api/campaigns/byo/rating-mappings/").json()
    assert [m["name"] for m in listed][-1] == "mine" and listed[0]["builtin"] is True
    assert {"mturk", "wmt", "potato"} <= {m["name"] for m in listed}
    bad = client.post(
        "/api/campaigns/byo/rating-mappings/",
        {"name": "bad", "mapping": three_slot_mapping(slots=11)},
        format="json",
    )
    assert bad.status_code == 400 and "slots" in bad.json()["detail"]
    assert (
        api_as(people["viewer"])
        .post("/api/campaigns/byo/rating-mappings/", {"name": "x", "mapping": {}}, format="json")
        .status_code
        == 403
    )


def test_api_mapping_refusals_name_their_field(tmp_path: Path, people_campaign, api_as) -> None:
    """A mapping's refusal carried its setting only in the message: now under ``fields``
    too, by the input that held it (``mapping_json``, or ``mapping`` for a preset)."""
    people, _campaign = people_campaign
    client = api_as(people["designer"])
    upload = client.post(
        "/api/campaigns/byo/ratings/",
        {
            "file": SimpleUploadedFile("m.csv", _csv(tmp_path)),
            "mapping_json": json.dumps(three_slot_mapping(worker="seg")),
        },
        format="multipart",
    )
    assert upload.status_code == 400
    assert list(upload.json()["fields"]) == ["mapping_json.worker"]
    saved = client.post(
        "/api/campaigns/byo/rating-mappings/",
        {"name": "bad", "mapping": three_slot_mapping(slots=11)},
        format="json",
    )
    assert saved.status_code == 400 and list(saved.json()["fields"]) == ["mapping.slots"]


def test_api_upload_names_over_255_bytes_are_refused(
    tmp_path: Path, people_campaign, api_as
) -> None:
    """A name of 204 characters but 404 bytes passed Django's 255-character cut and was a
    500 (the file system's 255-byte limit, with the server's temporary path)."""
    people, _campaign = people_campaign
    response = api_as(people["designer"]).post(
        "/api/campaigns/byo/ratings/",
        {
            "file": SimpleUploadedFile("é" * 200 + ".csv", _csv(tmp_path)),
            "mapping_json": json.dumps(three_slot_mapping()),
        },
        format="multipart",
    )
    assert response.status_code == 400, response.content
    body = response.json()
    assert "fields" in body and "file" in body["fields"] and "255" in body["detail"]
    assert "/tmp" not in json.dumps(body)
    assert not Judgement.objects.exists()


def test_api_preset_names_are_ascii_and_a_campaign_keeps_at_most_fifty(
    people_campaign, api_as, settings
) -> None:
    """'wmт' (a Cyrillic т) was saved and listed beside the built-in 'wmt'; presets were
    unbounded in number."""
    from annotations.importing.mappings import SAVED_MAPPINGS_MAX

    people, campaign = people_campaign
    client = api_as(people["designer"])

    def save(name: str) -> Any:
        return client.post(
            "/api/campaigns/byo/rating-mappings/",
            {"name": name, "mapping": three_slot_mapping()},
            format="json",
        )

    lookalike = save("wm\u0442")
    assert lookalike.status_code == 400 and list(lookalike.json()["fields"]) == ["name"]
    for n in range(SAVED_MAPPINGS_MAX):
        assert save(f"p{n}").status_code == 201
    over = save("one-more")
    assert over.status_code == 400 and "at most 50" in over.json()["detail"]
    assert save("p0").status_code == 201  # replacing one is fine
    assert RatingMapping.objects.filter(campaign=campaign).count() == SAVED_MAPPINGS_MAX
