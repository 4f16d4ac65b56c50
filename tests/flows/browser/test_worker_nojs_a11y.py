"""Worker pages in real Chromium: without JavaScript, in a second browser, for screen
readers and keyboards, at phone width; MTurk completion and the stop page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.forms.judgements import SLIDER_START
from annotations.models import Assignment, Campaign, Judgement, Worker
from tests.factories import WorkerFactory
from tests.flows.browser.conftest import save_screenshot, settled_width, wait_until
from tests.flows.browser.test_worker_session import PROLIFIC, fill_valid, make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390
FIELDS = "input:not([type=hidden]), select, textarea"


def _route_prolific(page: Any) -> None:
    page.route(
        re.compile(r"^https://app\.prolific\.com/"),
        lambda route: route.fulfill(status=200, content_type="text/html", body="<h1>Prolific</h1>"),
    )


def _consent(page: Any) -> None:
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()


def _no_horizontal_scroll(page: Any) -> None:
    width = settled_width(page, PHONE)
    assert width <= PHONE, f"the page is {width}px wide at a {PHONE}px viewport"


def _ax_fields(page: Any) -> list[tuple[str, str]]:
    """(role, accessible name) of every form control in Chromium's accessibility tree."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    roles = {"textbox", "slider", "radio", "combobox", "checkbox", "spinbutton", "MenuListPopup"}
    found = []
    for node in nodes:
        role = node.get("role", {}).get("value", "")
        if node.get("ignored") or role not in roles or role == "MenuListPopup":
            continue
        found.append((role, str(node.get("name", {}).get("value", "")).strip()))
    cdp.detach()
    return found


def _described_by_error(page: Any, field_id: str) -> str:
    """The text of the elements an invalid field's aria-describedby points at."""
    return str(
        page.evaluate(
            """(id) => {
                const el = document.getElementById(id);
                if (el.getAttribute('aria-invalid') !== 'true') return '';
                return (el.getAttribute('aria-describedby') || '').split(/\\s+/)
                    .filter(Boolean).map(r => document.getElementById(r))
                    .filter(Boolean).map(n => n.textContent).join(' | ');
            }""",
            field_id,
        )
    )


# -- without JavaScript -----------------------------------------------------------------


@pytest.mark.parametrize("scale", ["magnitude", "slider"])
def test_worker_without_javascript_completes_a_session(new_page, live_server, scale):
    campaign = make_campaign(scale)
    page = new_page(java_script_enabled=False)
    _route_prolific(page)
    page.goto(f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=nojs-{scale}")
    _consent(page)
    page.get_by_text("Task 1 of 2").wait_for()
    action = page.locator("#task-form").get_attribute("action")
    assert page.locator("[data-ranking]").is_hidden()  # the live ranking needs JS
    save_screenshot(page, f"nojs-{scale}-01-task")

    outputs = page.locator(".w-output")
    first, second, third = (outputs.nth(i) for i in range(3))
    if scale == "magnitude":
        first.locator("input[data-score]").fill("120")
        second.locator("input[data-score]").fill("1.5")
        third.locator("input[data-score]").fill("80")
    else:
        first.locator("input[type=range]").fill("80")
        # The second stays where it started; the third takes the first's value.
        third.locator("select[data-tie]").select_option(label="Output A")
    page.get_by_role("button", name="Submit and continue").click()

    # A full page came back (no htmx without JS) with the errors inline, values kept.
    page.locator(".w-error-summary").wait_for()
    assert page.url == f"{live_server.url}{action}"
    assert Judgement.objects.count() == 0
    second_id = second.locator("[data-score]").get_attribute("id")
    # autofocus (no script needed) puts the focus on the first field in error.
    wait_until(page, "(id) => document.activeElement.id === id", second_id)
    if scale == "magnitude":
        assert first.locator("input[data-score]").input_value() == "120"
        assert second.locator("input[data-score]").input_value() == "1.5"
        assert "whole number" in _described_by_error(page, second_id)
    else:
        assert first.locator("input[type=range]").input_value() == "80"
        assert third.locator("select[data-tie]").input_value() == first.get_attribute("data-slot")
        assert "not moved this slider" in _described_by_error(page, second_id)
        assert "not moved" not in first.inner_text() and "not moved" not in third.inner_text()
    save_screenshot(page, f"nojs-{scale}-02-error")

    if scale == "magnitude":
        second.locator("input[data-score]").fill("150")
    else:
        # Without JS the server cannot tell "left in the middle" from "put in the middle":
        # it asked, and the worker confirms.
        second.get_by_label("Keep output B in the middle").check()
    page.get_by_role("button", name="Submit and continue").click()
    page.get_by_text("Task 2 of 2").wait_for()
    worker = Worker.objects.get(external_id=f"nojs-{scale}")
    judgement = Judgement.objects.get(worker=worker)
    assert judgement.metadata == {"js": False}
    scores = {s.slot: s.score for s in judgement.scores.all()}
    if scale == "magnitude":
        assert sorted(scores.values()) == [80.0, 120.0, 150.0]
    else:
        assert sorted(scores.values()) == [float(SLIDER_START), 80.0, 80.0]

    outputs = page.locator(".w-output")
    if scale == "magnitude":
        fill_valid(page, scale)
    else:
        for i, value in enumerate(("30", "70", "90")):
            outputs.nth(i).locator("input[type=range]").fill(value)
    page.get_by_role("button", name="Submit and continue").click()
    # The completion page stays until the worker follows its link (no timed redirect).
    page.get_by_text("Thank you, you are done").wait_for()
    save_screenshot(page, f"nojs-{scale}-03-done")
    page.get_by_role("link", name="Return to Prolific and complete").click()
    page.wait_for_url(re.compile(r"^https://app\.prolific\.com/"))
    assert page.url == f"{PROLIFIC}?cc=CODE{scale.upper()}"
    assert Judgement.objects.filter(worker=worker).count() == 2


# -- another browser --------------------------------------------------------------------


def test_worker_in_another_browser_resumes_and_never_gets_a_task_twice(new_page, live_server):
    campaign = make_campaign("magnitude")
    entry = f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=twice&STUDY_ID=s&SESSION_ID=x"
    laptop = new_page()
    laptop.goto(entry)
    _consent(laptop)
    laptop.get_by_text("Task 1 of 2").wait_for()
    action = laptop.locator("#task-form").get_attribute("action")
    texts = laptop.locator(".w-text").all_inner_texts()

    phone = new_page(width=PHONE, height=844)
    phone.goto(entry)
    phone.get_by_text("Task 1 of 2").wait_for()  # consent was given already
    assert phone.locator("#task-form").get_attribute("action") == action
    assert phone.locator(".w-text").all_inner_texts() == texts  # same order of outputs
    assert Assignment.objects.count() == 1
    save_screenshot(phone, "another-browser-01-resumed")

    fill_valid(phone, "magnitude")
    phone.get_by_role("button", name="Submit and continue").click()
    phone.get_by_text("Task 2 of 2").wait_for()

    # The first browser still shows task 1: its submit records nothing more and moves on.
    fill_valid(laptop, "magnitude")
    laptop.get_by_role("button", name="Submit and continue").click()
    laptop.get_by_text("Task 2 of 2").wait_for()
    worker = Worker.objects.get(external_id="twice")
    assert Judgement.objects.filter(worker=worker).count() == 1
    assert laptop.locator("#task-form").get_attribute("action") == phone.locator(
        "#task-form"
    ).get_attribute("action")
    assert Assignment.objects.filter(worker=worker).count() == 2
    pairs = list(Assignment.objects.values_list("worker_id", "task_id"))
    assert len(pairs) == len(set(pairs))


# -- accessibility and phone width ------------------------------------------------------


@pytest.mark.parametrize("scale", ["magnitude", "slider", "likert"])
def test_fields_are_named_errors_are_tied_and_focused_at_phone_width(new_page, live_server, scale):
    campaign = make_campaign(scale)
    page = new_page(width=PHONE, height=844)
    page.goto(f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=a11y-{scale}")
    _no_horizontal_scroll(page)
    _consent(page)
    page.get_by_text("Task 1 of 2").wait_for()
    _no_horizontal_scroll(page)

    fields = _ax_fields(page)
    assert all(name for _, name in fields), f"unnamed fields: {fields}"
    letters = "ABC"
    if scale == "magnitude":
        assert fields == [("textbox", f"Score for output {x}") for x in letters]
    elif scale == "slider":
        assert [f for f in fields if f[0] == "slider"] == [
            ("slider", f"Score for output {x}") for x in letters
        ]
        assert [f for f in fields if f[0] == "combobox"] == [
            ("combobox", f"Same score as (for output {x})") for x in letters
        ]
    else:
        assert [r for r, _ in fields] == ["radio"] * 15
        assert "5 Completely fluent, as a native speaker would write" in {n for _, n in fields}
    # Every visible control in the DOM is in that list (none hidden from assistive tech).
    assert page.locator(FIELDS).count() == len(fields)

    # A refused submit: errors tied to their fields, focus on the first one.
    outputs = page.locator(".w-output")
    if scale == "magnitude":
        outputs.nth(0).locator("input[data-score]").fill("100")
        outputs.nth(1).locator("input[data-score]").fill("-5")
    elif scale == "slider":
        outputs.nth(0).locator("input[type=range]").fill("70")
    else:
        outputs.nth(0).locator("label.w-level").nth(1).click()
    page.get_by_role("button", name="Submit and continue").click()
    page.locator(".w-output.has-error").first.wait_for()
    second_id = outputs.nth(1).locator("[data-score]").first.get_attribute("id")
    wait_until(page, "(id) => document.activeElement.id === id", second_id)
    message = _described_by_error(page, second_id)
    assert message.startswith("Output B:") or "Output B:" in message
    third_id = outputs.nth(2).locator("[data-score]").first.get_attribute("id")
    assert "Output C:" in _described_by_error(page, third_id)
    first_id = outputs.nth(0).locator("[data-score]").first.get_attribute("id")
    assert _described_by_error(page, first_id) == ""  # the valid one is not marked
    _no_horizontal_scroll(page)
    save_screenshot(page, f"a11y-{scale}-phone-error")

    fill_valid(page, scale)
    _no_horizontal_scroll(page)
    page.get_by_role("button", name="Submit and continue").click()
    page.get_by_text("Task 2 of 2").wait_for()
    _no_horizontal_scroll(page)


def test_slider_can_be_placed_with_the_keyboard_only(page, live_server):
    campaign = make_campaign("slider")
    Campaign.objects.filter(pk=campaign.pk).update(consent_text="")
    page.goto(f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=kbd-slider")
    _consent(page)
    page.get_by_text("Task 1 of 2").wait_for()
    # The page's script has run (it marks the form); keys pressed before that still work,
    # but then it is the server that tells moved sliders (value off the start) apart.
    wait_until(page, "() => document.querySelector('[data-js-flag]').value === '1'")
    sliders = page.locator("input[type=range]")
    sliders.nth(0).focus()
    for key, slider in (("ArrowRight", 0), ("ArrowLeft", 1), ("End", 2)):
        sliders.nth(slider).focus()
        page.keyboard.press(key)
    page.keyboard.press("Tab")  # to "same score as" of output C, then on to the button
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.get_by_text("Task 2 of 2").wait_for()
    judgement = Judgement.objects.get()
    assert judgement.metadata == {"js": True}
    assert len(set(judgement.scores.values_list("score", flat=True))) == 3


# -- MTurk completion, stop page ---------------------------------------------------------


def test_mturk_worker_completes_and_posts_the_hit_back(page, live_server):
    campaign = make_campaign("likert")
    posted: list[dict[str, str]] = []

    def mturk(route: Any) -> None:
        request = route.request
        posted.append({"method": request.method, "url": request.url, "body": request.post_data})
        route.fulfill(status=200, content_type="text/html", body="<h1>HIT submitted</h1>")

    page.route(re.compile(r"^https://workersandbox\.mturk\.com/"), mturk)
    page.goto(
        f"{live_server.url}/w/{campaign.slug}/?workerId=W1&assignmentId=A1&hitId=H1"
        "&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com"
    )
    _consent(page)
    for n in (1, 2):
        page.get_by_text(f"Task {n} of 2").wait_for()
        fill_valid(page, "likert")
        page.get_by_role("button", name="Submit and continue").click()
    page.get_by_text("Thank you, you are done").wait_for()
    save_screenshot(page, "mturk-done")
    page.get_by_role("button", name="Submit the HIT").click()
    page.get_by_text("HIT submitted").wait_for()
    assert posted[0]["method"] == "POST"
    assert posted[0]["url"] == "https://workersandbox.mturk.com/mturk/externalSubmit"
    assert "assignmentId=A1" in posted[0]["body"]
    assert "completionCode=CODELIKERT" in posted[0]["body"]


def test_stopped_prolific_worker_sees_a_polite_page_with_the_failed_check_code(page, live_server):
    campaign = make_campaign("magnitude")
    Campaign.objects.filter(pk=campaign.pk).update(failed_check_code="NOPAY1")
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now(), stopped=True)
    page.goto(f"{live_server.url}/w/{campaign.slug}/s/{worker_token(worker)}/")
    assert page.get_by_role("heading", name="Thank you for your time").is_visible()
    assert page.get_by_text("NOPAY1").is_visible()
    link = page.get_by_role("link", name="Return to Prolific")
    assert link.get_attribute("href") == f"{PROLIFIC}?cc=NOPAY1"
    save_screenshot(page, "stopped")
    assert Assignment.objects.count() == 0


def test_likert_labels_of_words_wrap_between_words_at_phone_width(new_page, live_server):
    """Labels such as "Strongly disagree" were squeezed into a 1.5rem column and broke
    letter by letter ("St/ro/ng/ly"); digits-only labels hid it."""
    campaign = make_campaign("likert")
    words = [
        "Strongly disagree",
        "Disagree",
        "Neither agree nor disagree",
        "Agree",
        "Strongly agree",
    ]
    criterion = campaign.criteria.get()
    criterion.scale_settings = {
        "levels": [
            {"value": n + 1, "label": label, "descriptor": f"The text: {label.lower()}."}
            for n, label in enumerate(words)
        ]
    }
    criterion.save(update_fields=["scale_settings"])
    page = new_page(width=360, height=740)
    page.goto(f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=phone-likert")
    _consent(page)
    page.get_by_text("Task 1 of 2").wait_for()
    # Each label is at least as wide as its longest word set on one line.
    narrow = page.evaluate(
        """() => [...document.querySelectorAll('.w-level-label')].filter((label) => {
            const probe = document.createElement('span');
            probe.style.whiteSpace = 'nowrap';
            probe.style.font = getComputedStyle(label).font;
            probe.textContent = label.textContent.trim().split(/\\s+/)
                .reduce((a, b) => (a.length >= b.length ? a : b));
            document.body.appendChild(probe);
            const word = probe.getBoundingClientRect().width;
            probe.remove();
            return label.getBoundingClientRect().width + 1 < word;
        }).map((label) => label.textContent.trim())"""
    )
    assert narrow == [], f"labels broken inside a word: {narrow}"
    assert settled_width(page, 360) <= 360
    save_screenshot(page, "likert-word-labels-phone")
