"""The runs API shows a run whose worker was lost as the pages do (failed, with the
sweep's reason) and writes nothing; the sweep stores it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ranking.models import RankingRun
from tests.ranking.running_runs import writes

pytestmark = pytest.mark.django_db


def test_the_api_shows_a_lost_run_as_the_pages_do_and_writes_nothing(lost, client):
    """The run's API and the campaign's list said "running" for a run the pages already
    showed as failed: both now show it as the sweep will leave it."""
    detail = f"/api/rankings/{lost.pk}/"
    listing = f"/api/campaigns/{lost.campaign.slug}/rankings/"
    for url in (detail, listing):
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, url
        assert writes(queries) == [], url
    body = client.get(detail).json()
    assert body["status"] == "failed" and "No progress for over 10 min" in body["error"]
    (row,) = client.get(listing).json()["results"]
    assert row["status"] == "failed"
    lost.refresh_from_db()
    assert lost.status == RankingRun.Status.RUNNING  # the row waits for the sweep
