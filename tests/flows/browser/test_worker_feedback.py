"""What the worker's form tells the worker, in real Chromium: the consent error takes the
focus, the ranking preview ranks only valid numbers, the autosave line is announced."""

from __future__ import annotations

import pytest

from annotations.models import Campaign
from tests.flows.browser.conftest import wait_until
from tests.flows.browser.test_worker_session import make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _long_consent(campaign: Campaign) -> None:
    # Instructions long enough that the box sits far below the top of the page.
    Campaign.objects.filter(pk=campaign.pk).update(
        instructions="\n\n".join(f"Paragraph {i} of the instructions." for i in range(60))
    )


def _start(page, live_server, campaign: Campaign, pid: str) -> None:
    page.goto(f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID={pid}&STUDY_ID=st")


@pytest.mark.parametrize("js", [True, False])
def test_consent_refused_moves_focus_to_the_box_and_its_error(
    new_page, live_server, js, screenshot
):
    page = new_page(java_script_enabled=js, height=700)
    campaign = make_campaign("magnitude")
    _long_consent(campaign)
    _start(page, live_server, campaign, f"pid-consent-{js}")
    page.get_by_role("button", name="Start").click()
    error = page.locator("#agree-error")
    error.wait_for()
    # autofocus (no script needed) is applied once the page has rendered
    wait_until(page, "() => document.activeElement && document.activeElement.name === 'agree'")
    # the error is on screen, not 2,500 px below the top
    box = error.bounding_box()
    assert box is not None and 0 <= box["y"] < 700
    assert page.evaluate("window.scrollY") > 0
    page.screenshot(path=str(screenshot("consent-refused").parent / f"consent-refused-{js}.png"))
    # the address left in the bar, opened again, shows the consent page, not a 405
    assert "/start/?PROLIFIC_PID=" in page.url
    response = page.goto(page.url)
    assert response.status == 200
    assert page.get_by_label("I have read the information above").count() == 1


def test_ranking_preview_ignores_invalid_numbers(page, live_server, screenshot):
    campaign = make_campaign("magnitude")
    _start(page, live_server, campaign, "pid-ranking")
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_text("Task 1 of 2").wait_for()
    page.wait_for_load_state("load")
    outputs = page.locator(".w-output")
    letters = [outputs.nth(i).get_attribute("data-letter") for i in range(3)]
    ranking = page.locator("[data-ranking-list]")
    for bad in ("1000000", "-5", "abc"):
        outputs.nth(0).locator("input[data-score]").fill(bad)
        outputs.nth(1).locator("input[data-score]").fill("100")
        outputs.nth(2).locator("input[data-score]").fill("40")
        items = ranking.locator("li").all_inner_texts()
        assert items[:2] == [f"Output {letters[1]}", f"Output {letters[2]}"], (bad, items)
        assert items[2] == f"Not scored yet: Output {letters[0]}", (bad, items)
    outputs.nth(0).locator("input[data-score]").fill("999999")
    assert ranking.locator("li").first.inner_text() == f"Output {letters[0]}"
    screenshot("ranking-preview-valid-only")


def test_autosave_status_line_appears_and_is_polite(page, live_server, screenshot):
    campaign = make_campaign("magnitude")
    _start(page, live_server, campaign, "pid-autosave")
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_text("Task 1 of 2").wait_for()
    page.wait_for_load_state("load")
    status = page.locator("[data-autosave-status]")
    assert status.get_attribute("role") == "status"
    assert status.get_attribute("aria-live") == "polite"
    page.locator(".w-output").first.locator("input[data-score]").fill("120")
    wait_until(page, "() => document.querySelector('[data-autosave-status]').textContent !== ''")
    assert status.inner_text() == "Your answers are saved as you type."
    assert status.is_visible()
    screenshot("autosave-status")
