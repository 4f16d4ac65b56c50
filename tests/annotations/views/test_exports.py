"""The judgements download (annotations/views/exports.py), streamed."""

from __future__ import annotations

from django.urls import reverse

from tests.annotations.designer_data import judged_campaign


def test_export_streams_csv(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    response = owner_client.get(
        reverse("annotations:designer-export", args=[campaign.slug]),
        {"criterion": "quality", "format": "csv"},
    )
    assert response.streaming
    assert response["Content-Disposition"].endswith('.csv"')
    body = b"".join(response.streaming_content).decode()
    assert body.startswith("_unit_id,_id,_worker_id,_started_at,_created_at")
    bad = owner_client.get(
        reverse("annotations:designer-export", args=[campaign.slug]),
        {"criterion": "quality", "format": "xml"},
    )
    assert bad.status_code == 400
