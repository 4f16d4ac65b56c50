"""A run whose worker was lost shows as failed on the ranking pages, which write nothing;
starting, retrying or deleting a run sweeps the campaign's runs first (and a beat: celery
beat, or the embedded beat without a broker)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ranking.models import RankingRun
from tests.ranking.running_runs import writes

pytestmark = pytest.mark.django_db


def test_a_lost_run_shows_as_failed_and_the_pages_write_nothing(lost, client):
    """The page says what the sweep will store; the row stays as it is until then."""
    pages = [
        reverse("ranking:run", args=[lost.pk]),
        reverse("ranking:campaign-runs", args=[lost.campaign.slug]),
        reverse("ranking:run-delete", args=[lost.pk]),
    ]
    for url in pages:
        client.get(url)  # warm the caches (sessions, content types) out of the count
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, url
        assert writes(queries) == [], url
    detail = client.get(pages[0]).content.decode()
    assert "No progress for over 10 min" in detail and "every 1s" not in detail
    assert 'badge-run-failed">Failed' in client.get(pages[1]).content.decode()
    assert "cancel it first" not in client.get(pages[2]).content.decode()
    assert RankingRun.objects.get(pk=lost.pk).status == RankingRun.Status.RUNNING


def test_the_htmx_poll_of_a_lost_run_writes_nothing(lost, client):
    url = reverse("ranking:run", args=[lost.pk])
    with CaptureQueriesContext(connection) as queries:
        partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "No progress for over 10 min" in partial
    assert writes(queries) == []


def test_retrying_a_lost_run_sweeps_it_first(lost, client):
    response = client.post(reverse("ranking:run-retry", args=[lost.pk]))
    assert response.status_code == 302
    lost.refresh_from_db()
    assert lost.status == RankingRun.Status.PENDING and lost.error == ""


def test_deleting_a_lost_run_sweeps_it_first(lost, client):
    response = client.post(reverse("ranking:run-delete", args=[lost.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("ranking:campaign-runs", args=[lost.campaign.slug])
    assert not RankingRun.objects.filter(pk=lost.pk).exists()


def test_starting_a_run_ends_the_campaigns_lost_runs(lost, client):
    response = client.post(
        reverse("ranking:campaign-runs", args=[lost.campaign.slug]),
        {
            "criterion": lost.criterion.name,
            "method": "wmt14",
            "runs": 20,
            "seed": 3,
            "confidence": 0.95,
        },
    )
    assert response.status_code == 302, response.content
    lost.refresh_from_db()
    assert lost.status == RankingRun.Status.FAILED
    assert "No progress for over 10 min" in lost.error
