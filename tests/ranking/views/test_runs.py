"""Ranking pages: start a run (Celery, eager in tests), progress partial, result, compare."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from annotations.models import CampaignMembership
from ranking.models import RankingRun
from tests.annotations.designer_data import add_member, judged_campaign, users

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def setup(client):
    pytest.importorskip("ranking.services.runs", reason="the ranking engine is not importable yet")
    people = users()
    # 12 items x 3 workers: every system in 36 judgements, over the minimum of 30.
    campaign = judged_campaign(owner=people["owner"], n_items=12)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    client.force_login(people["owner"])
    return people, campaign


def _start(client, campaign, django_capture_on_commit_callbacks, method="wmt14"):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("ranking:campaign-runs", args=[campaign.slug]),
            {
                "criterion": "quality",
                "method": method,
                "runs": 20,
                "seed": 3,
                "confidence": 0.95,
                "exclude_flagged": "on",
            },
        )
    assert response.status_code == 302, response.content
    return RankingRun.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[-1]))


def test_pending_run_shows_a_polling_progress_bar(client, setup):
    _people, campaign = setup
    run = RankingRun.objects.create(
        campaign=campaign, criterion=campaign.criteria.get(), progress=0.4, status="running"
    )
    url = reverse("ranking:run", args=[run.pk])
    html = client.get(url).content.decode()
    assert 'hx-trigger="every 1s"' in html and 'aria-valuenow="40"' in html
    partial = client.get(url, **HX).content.decode()
    assert partial.lstrip().startswith('<div id="run-result"') and "<html" not in partial


def test_run_through_celery_shows_clusters_plot_and_stability(
    client, setup, django_capture_on_commit_callbacks
):
    _people, campaign = setup
    run = _start(client, campaign, django_capture_on_commit_callbacks)
    run.refresh_from_db()
    assert run.status == "done" and run.progress == 1.0
    html = client.get(reverse("ranking:run", args=[run.pk])).content.decode()
    # Done: no more polling; the cluster table lists every system.
    assert "every 1s" not in html
    for label in ("alpha", "beta", "gamma", "delta", "epsilon"):
        assert f"<td>{label}</td>" in html
    assert reverse("ranking:run-plot", args=[run.pk]) in html
    if run.stability:
        assert run.stability["note"] in html
    plot = client.get(reverse("ranking:run-plot", args=[run.pk]))
    assert plot["Content-Type"] == "image/svg+xml" and b"<svg" in plot.content
    for fmt in ("table", "json", "csv", "latex", "markdown"):
        response = client.get(reverse("ranking:run-export", args=[run.pk, fmt]))
        assert response.status_code == 200 and "alpha" in response.content.decode()


def test_two_runs_side_by_side(client, setup, django_capture_on_commit_callbacks):
    _people, campaign = setup
    a = _start(client, campaign, django_capture_on_commit_callbacks, "wmt14")
    b = _start(client, campaign, django_capture_on_commit_callbacks, "bradley_terry")
    html = client.get(reverse("ranking:compare"), {"a": a.pk, "b": b.pk}).content.decode()
    # Both results, each with every system (clusters only where the data allow them).
    assert html.count('id="side-') == 2
    # A ranking row ends with the system's comparisons (the content-check table, shown
    # too since the criterion asks the checks, has more columns after the system).
    for label in ("alpha", "beta", "gamma", "delta", "epsilon"):
        rows = re.findall(rf'<td>{label}</td><td class="num">[\d,]+</td></tr>', html)
        assert len(rows) == 2
    assert "Bradley-Terry" in html and "WMT14" in html
    # Each side's rule ends with the coverage its ranges keep (the sentence stopped at
    # "so ." on this page: the include did not pass it).
    assert "rounded up as WMT's scripts do, so ." not in html
    assert (
        html.count("rounded up as WMT&#x27;s scripts do, so the rank ranges keep")
        + html.count("rounded up as WMT's scripts do, so the rank ranges keep")
        == 2
    )


def test_viewer_cannot_start_runs(client, setup):
    people, campaign = setup
    client.force_login(people["viewer"])
    response = client.post(
        reverse("ranking:campaign-runs", args=[campaign.slug]), {"criterion": "quality"}
    )
    assert response.status_code == 403
    page = client.get(reverse("ranking:campaign-runs", args=[campaign.slug])).content.decode()
    assert "Start a ranking run" not in page


def test_export_of_unfinished_run_is_refused(client, setup):
    _people, campaign = setup
    run = RankingRun.objects.create(campaign=campaign, criterion=campaign.criteria.get())
    assert client.get(reverse("ranking:run-export", args=[run.pk, "csv"])).status_code == 400
    assert client.get(reverse("ranking:run-plot", args=[run.pk])).status_code == 404


def test_web_form_refuses_more_runs_than_the_cap(client, setup):
    _people, campaign = setup
    response = client.post(
        reverse("ranking:campaign-runs", args=[campaign.slug]),
        {"criterion": "quality", "method": "wmt14", "runs": 100_001, "seed": 1, "confidence": 0.95},
    )
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 100000." in response.content.decode()
    assert not RankingRun.objects.exists()


def test_a_criterion_gone_since_the_form_was_checked_is_a_form_error(client, setup, monkeypatch):
    # It was a 500 (Criterion.DoesNotExist) when deleted between the form's check and the run.
    _people, campaign = setup
    monkeypatch.setattr("ranking.views.runs.criterion_by_name", lambda campaign, name: None)
    response = client.post(
        reverse("ranking:campaign-runs", args=[campaign.slug]),
        {"criterion": "quality", "method": "wmt14", "runs": 20, "seed": 1, "confidence": 0.95},
    )
    assert response.status_code == 200
    assert f"Campaign &#x27;{campaign.slug}&#x27; has no criterion" in response.content.decode()
    assert not RankingRun.objects.exists()


def test_running_page_shows_runs_done_and_a_cancel_button(client, setup):
    people, campaign = setup
    run = RankingRun.objects.create(
        campaign=campaign,
        criterion=campaign.criteria.get(),
        runs=5000,
        runs_done=1250,
        progress=0.25,
        status="running",
        heartbeat_at=timezone.now(),
    )
    url = reverse("ranking:run", args=[run.pk])
    for headers in ({}, HX):
        html = client.get(url, **headers).content.decode()
        assert "1,250 of 5,000 runs (25%)" in html
        assert f'action="{reverse("ranking:run-cancel", args=[run.pk])}"' in html
    response = client.post(reverse("ranking:run-cancel", args=[run.pk]))
    assert response.status_code == 302
    run.refresh_from_db()
    assert run.status == "cancelled"
    html = client.get(url).content.decode()
    assert "The run was cancelled after 1,250 of 5,000 runs." in html
    assert "Retry this run" in html and "Delete this run" in html
    client.force_login(people["viewer"])
    assert client.post(reverse("ranking:run-retry", args=[run.pk])).status_code == 403


def test_delete_asks_for_confirmation_then_deletes(
    client, setup, django_capture_on_commit_callbacks
):
    _people, campaign = setup
    run = _start(client, campaign, django_capture_on_commit_callbacks)
    url = reverse("ranking:run-delete", args=[run.pk])
    page = client.get(url).content.decode()
    assert f"Delete ranking run #{run.pk}?" in page and "and its 5 result rows" in page
    assert "The judgements are not touched" in page
    assert RankingRun.objects.filter(pk=run.pk).exists()  # a GET deletes nothing
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("ranking:campaign-runs", args=[campaign.slug])
    assert not RankingRun.objects.filter(pk=run.pk).exists()


def test_a_running_run_cannot_be_deleted(client, setup):
    _people, campaign = setup
    run = RankingRun.objects.create(
        campaign=campaign,
        criterion=campaign.criteria.get(),
        status="running",
        heartbeat_at=timezone.now(),
    )
    assert (
        "cancel it first"
        in client.get(reverse("ranking:run-delete", args=[run.pk])).content.decode()
    )
    client.post(reverse("ranking:run-delete", args=[run.pk]))
    assert RankingRun.objects.filter(pk=run.pk).exists()


def test_compare_needs_two_visible_runs(client, setup, django_capture_on_commit_callbacks):
    people, campaign = setup
    a = _start(client, campaign, django_capture_on_commit_callbacks)
    assert client.get(reverse("ranking:compare"), {"a": a.pk}).status_code == 404
    client.force_login(people["outsider"])
    assert client.get(reverse("ranking:compare"), {"a": a.pk, "b": a.pk}).status_code == 404


def test_the_power_plan_says_how_far_off_the_simulator_found_it(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=1)
    client.force_login(people["owner"])
    html = client.get(reverse("ranking:campaign-power", args=[campaign.slug])).text
    assert "data-power-checked" in html
    assert "1.26-1.64\u00d7 this figure with 2 systems" in html
    assert "0.24\u00d7 this figure with 20 systems" in html
    # quoted as measured, never turned into a number for this campaign
    assert "expect about" not in html and "Your campaign may differ" in html


def test_the_start_form_sent_twice_starts_one_run(
    client, setup, django_capture_on_commit_callbacks
):
    """A double click on "Start" (the run still pending, its worker not yet started)
    leads both sends to the same run's page; before, each started a run."""
    _people, campaign = setup
    form = {
        "criterion": "quality",
        "method": "wmt14",
        "runs": 20,
        "seed": 3,
        "confidence": 0.95,
        "exclude_flagged": "on",
    }
    url = reverse("ranking:campaign-runs", args=[campaign.slug])
    with django_capture_on_commit_callbacks(execute=False):
        first = client.post(url, form)
        second = client.post(url, form)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert RankingRun.objects.count() == 1
