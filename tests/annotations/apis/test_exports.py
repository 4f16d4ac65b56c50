"""The judgements export API (annotations/apis/exports.py): streamed, in every format of
the export's one list, under ``fmt=`` (DRF keeps ``format=`` for itself)."""

from __future__ import annotations

import json

import pytest

from annotations.exports import judgements as exports

pytestmark = pytest.mark.django_db


def test_export_is_streamed(designer_api):
    client, campaign, _ = designer_api
    response = client.get(f"/api/campaigns/{campaign.slug}/export/?criterion=quality&fmt=jsonl")
    assert response.status_code == 200 and response.streaming
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 12 and json.loads(lines[0])["criterion"] == "quality"
    missing = client.get(f"/api/campaigns/{campaign.slug}/export/?criterion=nope")
    assert missing.status_code == 400 and "no criterion 'nope'" in missing.json()["detail"]


@pytest.mark.parametrize("fmt", sorted(exports.FORMATS))
def test_every_export_format_is_offered(designer_api, fmt):
    client, campaign, _ = designer_api
    response = client.get(f"/api/campaigns/{campaign.slug}/export/?criterion=quality&fmt={fmt}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == exports.FORMATS[fmt][0]
    assert f".{exports.FORMATS[fmt][1]}" in response["Content-Disposition"]


def test_an_unknown_format_is_a_400_naming_the_parameter(designer_api):
    client, campaign, _ = designer_api
    response = client.get(f"/api/campaigns/{campaign.slug}/export/?criterion=quality&fmt=xlsx")
    assert response.status_code == 400 and "fmt" in response.json()["detail"]


def test_the_pages_format_parameter_is_taken_too(designer_api):
    """``?format=jsonl``, as the page takes it, was a bare 404 "Not found." (DRF reads
    ``format`` as its renderer override); it names the file's format here as well."""
    client, campaign, _ = designer_api
    url = f"/api/campaigns/{campaign.slug}/export/?criterion=quality"
    response = client.get(url + "&format=jsonl")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    assert client.get(url + "&format=wmt&fmt=csv")["Content-Type"].startswith("text/csv")


@pytest.mark.parametrize("given", ["xlsx", "xml", "json", "api"])
def test_a_format_that_is_no_files_is_a_400_naming_the_parameter(designer_api, given):
    """``format=xml`` was DRF's bare 404 "Not found.", and ``json`` or ``api`` answered
    the CSV (the file is streamed whatever renderer DRF picked)."""
    client, campaign, _ = designer_api
    url = f"/api/campaigns/{campaign.slug}/export/?criterion=quality&format={given}"
    response = client.get(url)
    assert response.status_code == 400, response.content
    body = response.json()
    assert "format" in body["fields"] and "csv, jsonl, wmt" in body["detail"]
