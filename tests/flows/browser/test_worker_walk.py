"""What a new crowd worker tripped on, in real Chromium: the consent error takes the
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


def test_set_up_1_shows_one_standard_with_a_value_per_criterion(page, live_server, screenshot):
    from annotations.core.outputs import OutputRow
    from annotations.services.criteria import criterion_from_preset
    from annotations.services.outputs import outputs_store
    from annotations.services.tasks import tasks_build
    from tests.factories import CampaignFactory

    campaign = CampaignFactory(
        slug="walk-together", setup="together", outputs_per_task=3, consent_text=""
    )
    for preset in ("informativeness", "naturalness", "quality"):
        criterion_from_preset(campaign=campaign, preset=preset)
    campaign.criteria.update(
        standard_text="Cotto is a coffee shop near The Bakers.",
        standard_input="name[Cotto], eatType[coffee shop], near[The Bakers]",
        show_input=True,
    )
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id="mr0",
                input="name[Cotto], eatType[coffee shop]",
                system=f"sys{s}",
                text=f"Cotto text of system {s}.",
            )
            for s in range(3)
        ],
    )
    tasks_build(campaign=campaign, seed=1)
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE)
    _start(page, live_server, campaign, "pid-together")
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()
    page.locator("#together-form").wait_for()
    assert page.locator("section[data-standard]").count() == 1
    assert page.get_by_text("Here is the TASK for you").count() == 1
    values = page.locator("[data-standard-value]").all_inner_texts()
    assert values == ["Informativeness: 100", "Naturalness: 100", "Quality: 100"]
    screenshot("together-one-standard")


def test_english_facts_of_a_right_to_left_item_read_left_to_right(page, live_server, screenshot):
    from annotations.models import Item

    campaign = make_campaign("magnitude")
    Item.objects.filter(campaign=campaign).update(
        input="name[Cotto], eatType[coffee shop], near[The Bakers]", language="ar"
    )
    _start(page, live_server, campaign, "pid-rtl")
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_text("Task 1 of 2").wait_for()
    directions = page.evaluate(
        "() => [...document.querySelectorAll('.w-input .w-mr dd')]"
        ".map(e => [e.textContent, getComputedStyle(e).direction])"
    )
    assert directions == [["Cotto", "ltr"], ["coffee shop", "ltr"], ["The Bakers", "ltr"]]
    screenshot("rtl-item-english-facts")
