"""Autosave in real Chromium: answers survive a reload; a second tab is told, not dropped."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Assignment, Campaign, Judgement, Worker
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"
SHOTS.mkdir(parents=True, exist_ok=True)


def campaign_and_worker() -> tuple[Campaign, Worker]:
    campaign = CampaignFactory(
        slug="browser-autosave", status=Campaign.Status.LIVE, tasks_per_worker=3
    )
    criterion = CriterionFactory(campaign=campaign)
    for _ in range(3):
        task_with_outputs(campaign=campaign, criterion=criterion)
    return campaign, WorkerFactory(campaign=campaign, consented_at=timezone.now())


def session(live_server, campaign: Campaign, worker: Worker) -> str:
    return f"{live_server.url}/w/{campaign.slug}/s/{worker_token(worker)}/"


def _is_draft(response) -> bool:
    return response.url.endswith("/draft/") and response.request.method == "POST"


def test_typed_answers_survive_a_reload(new_page, live_server):
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.goto(session(live_server, campaign, worker))
    inputs = page.locator("input.w-number")
    with page.expect_response(_is_draft) as saved:
        inputs.nth(0).fill("140")
    assert saved.value.status == 204
    with page.expect_response(_is_draft):
        inputs.nth(2).press_sequentially("75")
    page.reload()
    inputs = page.locator("input.w-number")
    assert inputs.nth(0).input_value() == "140"
    assert inputs.nth(1).input_value() == ""
    assert inputs.nth(2).input_value() == "75"
    assert Judgement.objects.count() == 0
    # The pre-filled answers are submitted like typed ones.
    inputs.nth(1).fill("90")
    page.get_by_role("button", name="Submit and continue").click()
    page.get_by_text("Task 2 of 3").wait_for()
    scores = sorted(Judgement.objects.get().scores.values_list("score", flat=True))
    assert scores == [75.0, 90.0, 140.0]


def test_corrections_typed_after_an_error_survive_a_reload(new_page, live_server):
    """The page shown again with errors autosaves too (it used to lose its draft URL)."""
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.goto(session(live_server, campaign, worker))
    inputs = page.locator("input.w-number")
    with page.expect_response(_is_draft):
        inputs.nth(1).fill("102")
    page.get_by_role("button", name="Submit and continue").click()
    page.locator("[data-error-summary]").wait_for()
    inputs = page.locator("input.w-number")
    with page.expect_response(_is_draft) as saved:
        inputs.nth(0).fill("201")
    assert saved.value.status == 204
    page.reload()
    inputs = page.locator("input.w-number")
    assert inputs.nth(0).input_value() == "201"
    assert inputs.nth(1).input_value() == "102"
    assert Judgement.objects.count() == 0


def test_a_second_tab_is_told_the_task_was_submitted_elsewhere(new_page, live_server):
    campaign, worker = campaign_and_worker()
    first = new_page()
    first.goto(session(live_server, campaign, worker))
    second = first.context.new_page()
    second.goto(session(live_server, campaign, worker))
    task = Assignment.objects.get(worker=worker)

    for i, value in enumerate(["120", "100", "60"]):
        first.locator("input.w-number").nth(i).fill(value)
    first.get_by_role("button", name="Submit and continue").click()
    first.get_by_text("Task 2 of 3").wait_for()

    # Typing in the stale tab: its autosave learns the task is done and says so.
    with second.expect_response(_is_draft) as late:
        second.locator("input.w-number").nth(0).fill("5")
    assert late.value.status == 409
    conflict = second.locator("[data-draft-conflict]")
    conflict.wait_for()
    assert "already submitted (here or in another tab" in conflict.inner_text()
    second.screenshot(path=str(SHOTS / "second-tab-draft.png"), full_page=True)

    # Submitting there anyway: nothing is recorded twice, and the next task comes with
    # the explanation.
    for i in range(3):
        second.locator("input.w-number").nth(i).fill("5")
    second.get_by_role("button", name="Submit and continue").click()
    notice = second.locator("[data-notice]")
    notice.wait_for()
    assert "already submitted (here or in another tab" in notice.inner_text()
    assert second.get_by_text("Task 2 of 3").is_visible()
    second.screenshot(path=str(SHOTS / "second-tab-submit.png"), full_page=True)
    assert Judgement.objects.count() == 1
    assert Judgement.objects.get().assignment_id == task.pk
    assert sorted(Judgement.objects.get().scores.values_list("score", flat=True)) == [
        60.0,
        100.0,
        120.0,
    ]
