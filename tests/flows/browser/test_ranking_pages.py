"""The ranking pages in real Chromium: a run in progress with runs done and Cancel, a
thin-data result with its warning, a result with content checks, at desktop and phone
width. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from annotations.models import JudgementScore
from ranking.models import RankingRun
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.flows.browser.conftest import save_screenshot, settled_width
from tests.ranking.planted import planted_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390


def _login(page, live_server, username: str) -> None:
    page.set_default_timeout(60_000)  # a shared, loaded machine
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-" + username)
    page.get_by_role("button", name="Sign in").click()


def _shot(page, name: str) -> None:
    save_screenshot(page, name)


def test_progress_cancel_thin_data_and_content_checks(new_page, live_server):
    owner = User.objects.create_user("rk-owner", password="pw-rk-owner")
    thin, thin_criterion = planted_campaign(strengths=[60, 20, -20, -60], n_judgements=2, k=4)
    rich, rich_criterion = planted_campaign(
        strengths=[150, 50, -50, -150], n_judgements=60, k=4, seed=3, noise=5
    )
    for campaign in (thin, rich):
        campaign.owner = owner
        campaign.save(update_fields=["owner"])
    rich_criterion.content_checks = ["added", "missing", "perfect"]
    rich_criterion.save(update_fields=["content_checks"])
    scores = list(JudgementScore.objects.filter(judgement__criterion=rich_criterion))
    for i, score in enumerate(scores):
        score.checks = (
            ["perfect"] if score.score > 200 and i % 3 else ["missing"] if i % 7 == 0 else []
        )
    JudgementScore.objects.bulk_update(scores, ["checks"])
    thin_run = ranking_run_compute(
        run=ranking_run_create(campaign=thin, criterion=thin_criterion, runs=200, queue=False)
    )
    rich_run = ranking_run_compute(
        run=ranking_run_create(campaign=rich, criterion=rich_criterion, runs=200, queue=False)
    )
    running = RankingRun.objects.create(
        campaign=rich,
        criterion=rich_criterion,
        runs=20_000,
        runs_done=7_000,
        progress=0.35,
        status="running",
        attempts=1,
        heartbeat_at=timezone.now() + timedelta(hours=1),  # stays "alive"
        created_by=owner,
    )

    page = new_page()
    _login(page, live_server, "rk-owner")
    page.goto(f"{live_server.url}/rankings/{running.pk}/", wait_until="domcontentloaded")
    page.get_by_text("7,000 of 20,000 runs (35%)").wait_for()
    _shot(page, "ranking-running")
    page.get_by_role("button", name="Cancel this run").click()
    page.get_by_text("The run was cancelled after 7,000 of 20,000 runs.").wait_for()
    assert page.get_by_role("button", name="Retry this run").is_visible()
    _shot(page, "ranking-cancelled")

    page.goto(f"{live_server.url}/rankings/{thin_run.pk}/")
    warning = page.get_by_role("alert")
    assert "Too little data for clusters" in warning.inner_text()
    assert page.locator("th", has_text="Cluster").count() == 0
    _shot(page, "ranking-thin-data")

    page.goto(f"{live_server.url}/rankings/{rich_run.pk}/")
    assert page.locator("th", has_text="Cluster").count() == 1
    assert page.get_by_role("heading", name="Content checks").is_visible()
    _shot(page, "ranking-content-checks")

    phone = new_page(width=PHONE, height=800)
    _login(phone, live_server, "rk-owner")
    phone.goto(f"{live_server.url}/rankings/{rich_run.pk}/")
    width = settled_width(phone, PHONE + 1)
    _shot(phone, "ranking-content-checks-phone")
    assert width <= PHONE + 1, f"the page is {width}px wide at {PHONE}px"
    phone.goto(f"{live_server.url}/rankings/{thin_run.pk}/delete/")
    phone.get_by_role("button", name=f"Delete run #{thin_run.pk}").click()
    phone.get_by_text(f"Ranking run #{thin_run.pk} deleted.").wait_for()
    _shot(phone, "ranking-deleted-phone")
    assert not RankingRun.objects.filter(pk=thin_run.pk).exists()
