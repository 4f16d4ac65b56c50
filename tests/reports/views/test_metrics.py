"""The metric-human correlation page and its API."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotations.models import CampaignMembership
from reports.models import MetricScore
from tests.annotations.designer_data import add_member, users
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db

GOOD = b"system,metric,score\ns0,len,3\ns1,len,2\ns2,len,1\ns3,len,0\n"


@pytest.fixture
def world():
    people = users()
    campaign, _criterion = planted_campaign(
        strengths=[60, 20, -20, -60], n_judgements=12, seed=3, k=4
    )
    campaign.owner = people["owner"]
    campaign.save(update_fields=["owner"])
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    return people, campaign


def _upload(client, campaign, data, name="m.csv"):
    return client.post(
        reverse("reports:metrics", args=[campaign.slug]),
        {"file": SimpleUploadedFile(name, data)},
    )


def test_editor_uploads_and_sees_the_table_and_an_inline_svg_per_metric(client, world):
    people, campaign = world
    client.force_login(people["owner"])
    page = client.get(reverse("reports:metrics", args=[campaign.slug]))
    assert page.status_code == 200 and b"No metric scores yet" in page.content
    response = _upload(client, campaign, GOOD)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert 'id="metric-correlations"' in page and "Kendall &tau;<sub>b</sub>" in page
    # Perfectly ordered systems: system-level Spearman is 1.000.
    match = re.search(r'<th scope="row">len.*?</tr>', page, re.S)
    assert match is not None
    row = match.group(0)
    assert row.count(">1.000<") >= 2
    assert page.count("<svg") == 1 and "<style" not in page.split("<svg", 1)[1].split("</svg>")[0]
    assert "<script" not in page.split("<svg", 1)[1].split("</svg>")[0]


def test_bad_file_shows_where_and_writes_nothing(client, world):
    people, campaign = world
    client.force_login(people["owner"])
    response = _upload(
        client, campaign, b"system,metric,score\ns0,len,3\nzz,len,1\n", name="bad.csv"
    )
    assert response.status_code == 200
    assert "bad.csv, line 3, field &#x27;system&#x27;" in response.content.decode()
    assert not MetricScore.objects.exists()


def test_viewer_reads_but_cannot_upload_and_outsider_gets_404(client, world):
    people, campaign = world
    client.force_login(people["viewer"])
    url = reverse("reports:metrics", args=[campaign.slug])
    page = client.get(url)
    assert page.status_code == 200 and b"Upload metric scores" not in page.content
    assert _upload(client, campaign, GOOD).status_code == 403
    client.force_login(people["outsider"])
    assert client.get(url).status_code == 404


def test_campaign_page_links_to_the_metrics_page(client, world):
    people, campaign = world
    client.force_login(people["owner"])
    page = client.get(reverse("annotations:designer-campaign", args=[campaign.slug]))
    assert reverse("reports:metrics", args=[campaign.slug]).encode() in page.content


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
    assert client.get(url, {"criterion": "nope"}).status_code == 400
    client.force_login(people["viewer"])
    assert client.get(url, {"criterion": "quality"}).status_code == 200
    assert client.post(url, {"file": SimpleUploadedFile("m.csv", GOOD)}).status_code == 403
