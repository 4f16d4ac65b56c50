"""Autosave in real Chromium: answers survive a reload (kept in the browser at once, on
the server within 15 s or when the page is left); a second tab is told, not dropped."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Assignment, Campaign, Judgement, Worker
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs
from tests.flows.browser.conftest import wait_until
from tests.flows.browser.test_worker_session import fill_valid, make_campaign
from tests.flows.browser.test_worker_together import together_campaign

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


#: The form as it would be posted, without the page's own fields.
FORM_STATE = """() => {
  const f = document.querySelector("form[data-draft-url]");
  return [...new FormData(f)].filter(([k]) => k !== "csrfmiddlewaretoken" && k !== "js")
    .map(([k, v]) => k + "=" + v);
}"""


#: This site's copies in the browser's storage, by name.
STORED = """() => Object.fromEntries(Object.keys(localStorage)
  .filter(k => k.startsWith("he-draft:")).map(k => [k, localStorage.getItem(k)]))"""


def _draft(worker: Worker) -> dict | None:
    return Assignment.objects.get(worker=worker).draft or None


def test_typed_answers_survive_a_reload(new_page, live_server):
    """Kept in the browser at once: a reload straight after typing loses nothing, and no
    draft has to reach the server first."""
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.goto(session(live_server, campaign, worker))
    drafts: list[object] = []
    page.on("request", lambda r: drafts.append(r) if r.url.endswith("/draft/") else None)
    inputs = page.locator("input.w-number")
    inputs.nth(0).fill("140")
    inputs.nth(2).press_sequentially("75")
    assert drafts == []  # nothing sent while the worker types
    page.reload()
    inputs = page.locator("input.w-number")
    assert inputs.nth(0).input_value() == "140"
    assert inputs.nth(1).input_value() == ""
    assert inputs.nth(2).input_value() == "75"
    assert Judgement.objects.count() == 0
    # The restored answers are submitted like typed ones.
    inputs.nth(1).fill("90")
    page.get_by_role("button", name="Submit and continue").click()
    page.get_by_text("Task 2 of 3").wait_for()
    scores = sorted(Judgement.objects.get().scores.values_list("score", flat=True))
    assert scores == [75.0, 90.0, 140.0]
    # The submitted task's copy is gone from the browser (once the next page has settled);
    # the next task starts empty.
    wait_until(page, f"() => Object.values(({STORED})()).every(v => !v.includes('\"140\"'))")
    assert page.locator("input.w-number").nth(0).input_value() == ""
    page.locator("input.w-number").nth(0).fill("33")
    kept = page.evaluate(STORED)
    assert len(kept) == 1 and '"33"' in next(iter(kept.values()))
    # The worker's secret token is nowhere in the browser's storage.
    assert all(worker_token(worker) not in k + v for k, v in kept.items())


@pytest.mark.parametrize("scale", ["magnitude", "slider", "likert"])
def test_every_kind_of_answer_is_put_back_after_a_reload(new_page, live_server, scale):
    """Numbers, sliders with their ties and moved marks, Likert levels: the form after a
    reload posts exactly what it posted before."""
    campaign = make_campaign(scale)
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    page = new_page()
    page.goto(session(live_server, campaign, worker))
    page.wait_for_load_state("load")
    fill_valid(page, scale)
    before = page.evaluate(FORM_STATE)
    page.reload()
    page.wait_for_load_state("load")
    assert page.evaluate(FORM_STATE) == before
    page.get_by_role("button", name="Submit and continue").click()
    page.get_by_text("Task 2 of 2").wait_for()
    assert Judgement.objects.count() == 1


def test_the_server_gets_a_copy_within_15_seconds_and_when_the_page_is_left(new_page, live_server):
    """Another browser (no copy of its own) is pre-filled from the server's copy."""
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.clock.install()
    page.goto(session(live_server, campaign, worker))
    inputs = page.locator("input.w-number")
    inputs.nth(0).fill("140")
    page.clock.run_for(14_000)
    assert _draft(worker) is None
    with page.expect_response(_is_draft) as saved:
        page.clock.run_for(1_500)
    assert saved.value.status == 204
    assert _draft(worker) is not None
    # A later change, then the page is left before its 15 s: sent on the way out.
    inputs.nth(1).fill("60")
    page.goto("about:blank")  # the page is gone; its last draft outlives it
    _wait_for_draft(page, worker, "60")
    other = new_page()
    other.goto(session(live_server, campaign, worker))
    inputs = other.locator("input.w-number")
    assert inputs.nth(0).input_value() == "140"
    assert inputs.nth(1).input_value() == "60"
    # The other browser changes them; the first, opened again, shows the newer answers
    # from the server, not its own older copy (nor sends that copy back over them).
    inputs.nth(0).fill("999")
    inputs.nth(1).fill("")
    other.goto("about:blank")
    _wait_for_draft(page, worker, "999")
    page.goto(session(live_server, campaign, worker))
    inputs = page.locator("input.w-number")
    assert inputs.nth(0).input_value() == "999"
    assert inputs.nth(1).input_value() == ""
    page.goto("about:blank")
    assert "999" in (_draft(worker) or {}).values()


def _wait_for_draft(page, worker: Worker, value: str) -> None:
    """Until the server's copy holds ``value`` (a page left sends its last one)."""
    for _ in range(100):
        if value in (_draft(worker) or {}).values():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"no draft with {value}: {_draft(worker)}")


#: Storage that throws, as in a browser that blocks it (Chrome with third-party cookies
#: blocked, in MTurk's iframe).
NO_STORAGE = """Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("blocked", "SecurityError"); } });"""


def test_without_storage_in_the_browser_each_change_reaches_the_server_soon(new_page, live_server):
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.add_init_script(NO_STORAGE)
    page.goto(session(live_server, campaign, worker))
    inputs = page.locator("input.w-number")
    with page.expect_response(_is_draft) as saved:
        inputs.nth(0).fill("123")
    assert saved.value.status == 204
    with page.expect_response(_is_draft):
        inputs.nth(1).fill("45")
    page.reload()
    inputs = page.locator("input.w-number")
    assert [inputs.nth(i).input_value() for i in range(3)] == ["123", "45", ""]


def test_a_submit_that_got_no_answer_leaves_autosave_on(new_page, live_server):
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.goto(session(live_server, campaign, worker))
    page.route(lambda url: url.rstrip("/").split("/")[-2] == "task", lambda r: r.abort())
    inputs = page.locator("input.w-number")
    inputs.nth(0).fill("250")
    with page.expect_event("requestfailed"):
        page.get_by_role("button", name="Submit and continue").click()
    page.unroute_all()
    inputs.nth(1).fill("300")
    page.reload()
    inputs = page.locator("input.w-number")
    assert [inputs.nth(i).input_value() for i in range(2)] == ["250", "300"]
    assert Judgement.objects.count() == 0


@pytest.mark.parametrize("failure", ["no answer", "502"])
def test_a_submit_that_failed_is_said_beside_the_button_and_can_be_pressed_again(
    new_page, live_server, failure
):
    """A submit the network dropped, or the server answered with an error page htmx does
    not show: the worker is told it was not sent (it used to look as if nothing happened)
    and that the answers are kept; pressing again records them, and the message goes."""
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.goto(session(live_server, campaign, worker))

    def is_submit(url: str) -> bool:
        return url.rstrip("/").split("/")[-2] == "task"

    page.route(
        is_submit,
        (lambda r: r.abort()) if failure == "no answer" else (lambda r: r.fulfill(status=502)),
    )
    fill_valid(page, "magnitude")
    page.get_by_role("button", name="Submit and continue").click()
    alert = page.locator("[data-submit-failed]")
    alert.wait_for()
    assert alert.get_attribute("role") == "alert"
    assert "were not sent" in alert.inner_text()
    assert "kept on this page" in alert.inner_text()
    assert Judgement.objects.count() == 0
    page.screenshot(path=str(SHOTS / f"autosave-submit-not-sent-{failure.replace(' ', '-')}.png"))
    page.unroute_all()
    page.get_by_role("button", name="Submit and continue").click()
    for _ in range(100):
        if page.title().startswith("Task 2 of 3"):
            break
        page.wait_for_timeout(100)
    assert page.title().startswith("Task 2 of 3")
    assert Judgement.objects.filter(worker=worker).count() == 1
    assert page.locator("[data-submit-failed]").count() == 0


def test_two_outputs_the_same_as_each_other_break_nothing(new_page, live_server):
    campaign = make_campaign("slider")
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(session(live_server, campaign, worker))
    page.wait_for_load_state("load")
    outputs = page.locator(".w-output")
    outputs.nth(0).locator("select[data-tie]").select_option(label="Output B")
    outputs.nth(1).locator("select[data-tie]").select_option(label="Output A")
    outputs.nth(0).locator("input[type=range]").fill("70")
    assert errors == []
    assert outputs.nth(1).locator("input[type=range]").input_value() == "70"


def test_corrections_typed_after_an_error_survive_a_reload(new_page, live_server):
    """The page shown again with errors keeps its answers too (it once lost its draft URL)."""
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.goto(session(live_server, campaign, worker))
    page.locator("input.w-number").nth(1).fill("102")
    page.get_by_role("button", name="Submit and continue").click()
    page.locator("[data-error-summary]").wait_for()
    page.locator("input.w-number").nth(0).fill("201")
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
    second.clock.install()
    second.goto(session(live_server, campaign, worker))
    task = Assignment.objects.get(worker=worker)

    for i, value in enumerate(["120", "100", "60"]):
        first.locator("input.w-number").nth(i).fill(value)
    first.get_by_role("button", name="Submit and continue").click()
    first.get_by_text("Task 2 of 3").wait_for()

    # Typing in the stale tab: its autosave learns the task is done and says so.
    second.locator("input.w-number").nth(0).fill("5")
    with second.expect_response(_is_draft) as late:
        second.clock.run_for(15_500)
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


def test_type_reload_type_reload_keeps_both_changes(new_page, live_server):
    """Each reload may come before the server has the copy sent as the page is left:
    this browser's copy, which sent it, still wins over the server's older one."""
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.goto(session(live_server, campaign, worker))
    page.locator("input.w-number").nth(0).fill("120")
    page.reload()
    page.locator("input.w-number").nth(1).fill("80")
    page.reload()
    inputs = page.locator("input.w-number")
    assert [inputs.nth(i).input_value() for i in range(3)] == ["120", "80", ""]
    page.reload()
    inputs = page.locator("input.w-number")
    assert [inputs.nth(i).input_value() for i in range(3)] == ["120", "80", ""]


def test_a_refused_setup1_page_corrected_then_reloaded_keeps_every_answer(new_page, live_server):
    """A refused set-up 1 page keeps no draft on the server: the page shown again with
    errors must not count as the server's copy."""
    campaign = together_campaign()
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    page = new_page()
    page.goto(session(live_server, campaign, worker))
    outputs = page.locator("#together-form .w-output")
    for i in range(3):
        outputs.nth(i).locator("input.w-number").fill(["abc", "100", "40"][i])
        outputs.nth(i).locator("label.w-level").nth([4, 2, 0][i]).click()
    page.get_by_role("button", name="Submit and continue").click()
    page.locator("[data-error-summary]").wait_for()
    outputs.nth(0).locator("input.w-number").fill("55")
    before = page.evaluate(FORM_STATE)
    page.reload()
    page.wait_for_load_state("load")
    assert page.evaluate(FORM_STATE) == before


def test_a_draft_the_server_did_not_take_is_sent_again(new_page, live_server):
    campaign, worker = campaign_and_worker()
    page = new_page()
    page.clock.install()
    page.route(lambda url: url.endswith("/draft/"), lambda route: route.fulfill(status=502))
    page.goto(session(live_server, campaign, worker))
    page.locator("input.w-number").nth(0).fill("140")
    with page.expect_response(_is_draft) as first:
        page.clock.run_for(15_500)
    assert first.value.status == 502
    page.unroute_all()
    with page.expect_response(_is_draft) as again:
        page.clock.run_for(15_500)
    assert again.value.status == 204
    assert "140" in (_draft(worker) or {}).values()


def test_a_slider_touched_where_it_stands_is_still_touched_after_a_reload(new_page, live_server):
    campaign = make_campaign("slider")
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    page = new_page()
    page.goto(session(live_server, campaign, worker))
    page.wait_for_load_state("load")
    first = page.locator(".w-output").first
    assert "untouched" in (first.locator(".w-slider").get_attribute("class") or "")
    # Pressed where it stands: no value changes, so no input or change event of its own.
    first.locator("input[type=range]").dispatch_event("pointerdown")
    page.reload()
    page.wait_for_load_state("load")
    first = page.locator(".w-output").first
    assert "untouched" not in (first.locator(".w-slider").get_attribute("class") or "")
    assert first.locator("[data-touched]").input_value() == "1"
