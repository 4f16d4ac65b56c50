"""The metrics API (reports/apis/metrics.py): upload, then the correlations."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

pytestmark = pytest.mark.django_db


GOOD = b"system,metric,score\ns0,len,3\ns1,len,2\ns2,len,1\ns3,len,0\n"


def test_api_upload_then_correlations(client, world):
    people, campaign = world
    client.force_login(people["owner"])
    url = reverse("api-metric-correlations", args=[campaign.slug])
    response = client.post(url, {"file": SimpleUploadedFile("m.csv", GOOD)})
    assert response.status_code == 201
    assert response.json()["metrics"] == [
        {"metric": "len", "segment_scores": 0, "system_scores": 4}
    ]
    data = client.get(url, {"criterion": "quality", "resamples": 50}).json()
    by = {(c["level"], c["method"]): c for c in data["metrics"][0]["correlations"]}
    assert by[("system", "spearman")]["value"] == 1.0
    assert data["bootstrap"]["resamples"] == 50
    bad = client.post(
        url, {"file": SimpleUploadedFile("b.csv", b"system,metric,score\ns0,len,x\n")}
    )
    assert bad.status_code == 400
    assert (bad.json()["file"], bad.json()["line"], bad.json()["field"]) == ("b.csv", 2, "score")
    nope = client.get(url, {"criterion": "nope"})
    assert nope.status_code == 400
    assert nope.json()["detail"] == f"Campaign '{campaign.slug}' has no criterion 'nope'."
    client.force_login(people["viewer"])
    assert client.get(url, {"criterion": "quality"}).status_code == 200
    assert client.post(url, {"file": SimpleUploadedFile("m.csv", GOOD)}).status_code == 403


def test_the_upload_answers_in_the_same_json_it_always_did(client, world):
    """Every key, its place and its type; a second upload says what it replaced."""
    people, campaign = world
    client.force_login(people["owner"])
    url = reverse("api-metric-correlations", args=[campaign.slug])
    two = GOOD + b"s0,bleu,0.5\ns1,bleu,0.25\n"
    first = client.post(url, {"file": SimpleUploadedFile("m.csv", two)})
    assert first.status_code == 201
    assert first.content.decode() == (
        '{"metrics":[{"metric":"bleu","segment_scores":0,"system_scores":2},'
        '{"metric":"len","segment_scores":0,"system_scores":4}],"replaced":0}'
    )
    again = client.post(url, {"file": SimpleUploadedFile("m.csv", GOOD)})
    assert again.content.decode() == (
        '{"metrics":[{"metric":"len","segment_scores":0,"system_scores":4}],"replaced":4}'
    )
