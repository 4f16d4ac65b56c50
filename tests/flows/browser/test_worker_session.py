"""A Prolific worker completes a session on each scale in real Chromium; MTurk preview."""

from __future__ import annotations

import re

import pytest

from annotations.models import Assignment, Campaign, Criterion, Judgement, Worker
from annotations.services.criteria import CRITERION_PRESETS
from tests.factories import CampaignFactory, CriterionFactory, task_with_outputs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROLIFIC = "https://app.prolific.com/submissions/complete"
TEXTS = (
    "Cotto is a coffee shop near The Bakers.",
    "Near The Bakers there is a coffee shop called Cotto.",
    "Cotto coffee shop coffee shop The Bakers near.",
)


def make_campaign(scale: str) -> Campaign:
    campaign = CampaignFactory(
        slug=f"browser-{scale}",
        name=f"Rate restaurant descriptions ({scale})",
        status=Campaign.Status.LIVE,
        tasks_per_worker=2,
        completion_code=f"CODE{scale.upper()}",
        consent_text="Your scores are stored without your name. You may stop at any time.",
        instructions="Read the information, then score every description of it.",
    )
    settings = {
        "magnitude": {"standard": 100, "max_digits": 6},
        "slider": {},
        "likert": CRITERION_PRESETS["fluency"]["scale_settings"],
    }[scale]
    criterion = CriterionFactory(
        campaign=campaign, scale=scale, scale_settings=settings, show_input=scale != "likert"
    )
    for _ in range(3):
        task_with_outputs(campaign=campaign, criterion=criterion, texts=TEXTS)
    return campaign


def fill_valid(page, scale: str) -> None:
    outputs = page.locator(".w-output")
    n = outputs.count()
    for i in range(n):
        li = outputs.nth(i)
        if scale == "magnitude":
            li.locator("input[data-score]").fill(str([150, 100, 40][i % 3]))
        elif scale == "slider":
            if i == n - 1:
                # The last one takes the first one's value: a tie, in one step.
                li.locator("select[data-tie]").select_option(label="Output A")
            else:
                li.locator("input[type=range]").fill(str([80, 30][i % 2]))
        else:
            li.locator("label.w-level").nth([4, 2, 0][i % 3]).click()


@pytest.mark.parametrize("scale", ["magnitude", "slider", "likert"])
def test_prolific_worker_completes_a_session(page, live_server, screenshot, scale):
    campaign = make_campaign(scale)
    page.route(
        re.compile(r"^https://app\.prolific\.com/"),
        lambda route: route.fulfill(status=200, content_type="text/html", body="<h1>Prolific</h1>"),
    )
    page.goto(
        f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=pid-{scale}&STUDY_ID=st&SESSION_ID=se"
    )

    # Consent and instructions, with a worked example of the scale.
    assert page.get_by_role("heading", name="Consent").is_visible()
    if scale == "magnitude":
        assert page.get_by_text("twice as good").is_visible()
    screenshot(f"{scale}-01-consent")
    page.get_by_role("button", name="Start").click()
    assert page.get_by_text("Please tick the box").is_visible()
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()

    # Task 1: progress, question, outputs.
    page.get_by_text("Task 1 of 2").wait_for()
    assert page.locator(".w-output").count() == 3
    if scale != "likert":
        assert page.locator(".w-mr dt", has_text="eat type").is_visible()
    screenshot(f"{scale}-02-task")
    action = page.locator("#task-form").get_attribute("action")

    # An inline validation error that keeps what was entered.
    first = page.locator(".w-output").first
    if scale == "magnitude":
        first.locator("input[data-score]").fill("120")
        page.locator(".w-output").nth(1).locator("input[data-score]").fill("1.5")
    elif scale == "likert":
        first.locator("label.w-level").nth(3).click()
    else:
        first.locator("input[type=range]").fill("65")
    page.get_by_role("button", name="Submit and continue").click()
    page.locator(".w-error").first.wait_for()
    if scale == "magnitude":
        assert page.locator("[data-error-summary]").is_visible()
        assert first.locator("input[data-score]").input_value() == "120"
        assert "whole number" in page.locator(".w-error-summary").inner_text()
    elif scale == "likert":
        assert first.locator("input[type=radio]").nth(3).is_checked()
        assert "Choose one of the levels" in page.locator(".w-error-summary").inner_text()
    else:
        # Caught before anything was sent: the untouched sliders are named.
        assert "not moved this slider" in page.locator(".w-output").nth(1).inner_text()
        assert "not moved" not in first.inner_text()
    assert Judgement.objects.count() == 0
    screenshot(f"{scale}-03-error")

    # A refresh mid-task shows the same task (same assignment), nothing lost or repeated.
    page.reload()
    page.get_by_text("Task 1 of 2").wait_for()
    assert page.locator("#task-form").get_attribute("action") == action
    assert Assignment.objects.filter(worker__external_id=f"pid-{scale}").count() == 1

    fill_valid(page, scale)
    ranking = page.locator("[data-ranking]")
    assert ranking.is_visible()
    if scale == "slider":
        assert "(tie)" in ranking.inner_text()
    screenshot(f"{scale}-04-filled")
    # Double submit: one judgement.
    page.get_by_role("button", name="Submit and continue").dblclick()
    page.get_by_text("Task 2 of 2").wait_for()
    worker = Worker.objects.get(external_id=f"pid-{scale}")
    assert Judgement.objects.filter(worker=worker).count() == 1

    # Phone width.
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(f"{scale}-05-task-phone")
    page.set_viewport_size({"width": 1100, "height": 900})

    fill_valid(page, scale)
    page.get_by_role("button", name="Submit and continue").click()
    # The completion page stays until the worker follows its button (no timed redirect).
    back = page.get_by_role("link", name="Return to Prolific and complete")
    back.wait_for()
    assert page.locator("meta[http-equiv=refresh]").count() == 0
    page.wait_for_timeout(2500)
    assert page.url.startswith(live_server.url)
    assert page.evaluate("document.activeElement.textContent") == back.inner_text()
    screenshot(f"{scale}-06-done")
    back.click()
    page.wait_for_url(re.compile(r"^https://app\.prolific\.com/"))
    assert page.url == f"{PROLIFIC}?cc=CODE{scale.upper()}"
    assert Judgement.objects.filter(worker=worker).count() == 2
    if scale == "slider":
        judgement = Judgement.objects.filter(worker=worker).first()
        assert judgement is not None
        scores = sorted(judgement.scores.values_list("score", flat=True))
        assert scores[1] == scores[2] or scores[0] == scores[1]  # the "same as" tie was kept


def test_mturk_preview_records_nothing(page, live_server, screenshot):
    campaign = make_campaign("magnitude")
    page.goto(
        f"{live_server.url}/w/{campaign.slug}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE"
        "&hitId=H1&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com"
    )
    assert page.get_by_text("Accept the HIT to start").first.is_visible()
    assert page.locator(".w-output").count() == 3
    screenshot("mturk-preview")
    assert Worker.objects.count() == 0
    assert Assignment.objects.count() == 0


def test_keyboard_only_magnitude_task(page, live_server):
    campaign = make_campaign("magnitude")
    Campaign.objects.filter(pk=campaign.pk).update(consent_text="")
    page.goto(f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=kbd")
    page.get_by_label("I have read the information above").focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.get_by_text("Task 1 of 2").wait_for()
    page.locator("input[data-score]").first.focus()
    for value in ("100", "200", "50"):
        page.keyboard.type(value)
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.get_by_text("Task 2 of 2").wait_for()
    assert Judgement.objects.count() == 1
    assert Criterion.objects.get(campaign=campaign).scale == "magnitude"


def test_back_after_consent_shows_the_task_not_a_stale_consent_page(page, live_server):
    """The browser's back button after "Start" asks the server again (worker pages are
    never cached): a returning worker is sent on to the task, not shown consent again."""
    campaign = make_campaign("magnitude")
    entry = f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=pid-back&STUDY_ID=st&SESSION_ID=se"
    response = page.goto(entry)
    assert "no-store" in response.headers["cache-control"]
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_text("Task 1 of 2").wait_for()
    action = page.locator("#task-form").get_attribute("action")

    page.go_back()
    page.get_by_text("Task 1 of 2").wait_for()
    assert page.get_by_role("heading", name="Consent").count() == 0
    assert page.locator("#task-form").get_attribute("action") == action
    assert Worker.objects.filter(external_id="pid-back").count() == 1
    assert Assignment.objects.filter(worker__external_id="pid-back").count() == 1


def test_untouched_sliders_are_listed_at_the_top_until_moved(page, live_server, screenshot):
    """The slider check runs before anything is sent; like the server's errors on the other
    scales it writes a summary at the top, one line (a link) per untouched slider, and a
    line goes when its slider is moved."""
    campaign = make_campaign("slider")
    page.goto(f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=pid-summary&STUDY_ID=st")
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_text("Task 1 of 2").wait_for()
    page.wait_for_load_state("load")  # the deferred worker.js listens now
    page.get_by_role("button", name="Submit and continue").click()

    summary = page.locator(".w-error-summary")
    summary.wait_for()
    assert summary.get_by_role("heading").inner_text() == "Please check your answers"
    links = summary.locator("a")
    assert links.all_inner_texts() == [
        f"Output {letter}: you have not moved this slider yet." for letter in "ABC"
    ]
    slots = [li.get_attribute("data-slot") for li in page.locator(".w-output").all()]
    assert [a.get_attribute("href") for a in links.all()] == [f"#score-{s}" for s in slots]
    # It sits above the outputs; focus went to the first untouched slider.
    assert summary.bounding_box()["y"] < page.locator(".w-output").first.bounding_box()["y"]
    assert page.evaluate("document.activeElement.id") == f"score-{slots[0]}"
    screenshot("slider-untouched-summary")

    page.locator(".w-output").nth(0).locator("input[type=range]").fill("70")
    assert links.all_inner_texts() == [
        f"Output {letter}: you have not moved this slider yet." for letter in "BC"
    ]
    for i in (1, 2):
        page.locator(".w-output").nth(i).locator("input[type=range]").fill(str(20 * i))
    assert page.locator(".w-error-summary").count() == 0
    assert page.locator(".w-error").count() == 0
    assert Judgement.objects.count() == 0
    page.get_by_role("button", name="Submit and continue").click()
    page.get_by_text("Task 2 of 2").wait_for()
    assert Judgement.objects.count() == 1
