"""The metric-human correlation page (reports/views/metrics.py)."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from reports.models import MetricScore

pytestmark = pytest.mark.django_db


GOOD = b"system,metric,score\ns0,len,3\ns1,len,2\ns2,len,1\ns3,len,0\n"


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


def test_the_criteria_are_offered_in_the_campaigns_order_the_first_chosen(client, world):
    """As on every other page: by position, not by when each criterion was created."""
    people, campaign = world
    first = campaign.criteria.get()
    first.position = 1
    first.save(update_fields=["position"])
    campaign.criteria.create(name="aardvark-last-made", position=0)
    client.force_login(people["owner"])
    page = client.get(reverse("reports:metrics", args=[campaign.slug])).content.decode()
    offered = re.findall(r'<option value="([^"]*)"\s*(selected)?', page)
    assert [name for name, _ in offered] == ["aardvark-last-made", first.name]
    assert offered[0][1] == "selected"
