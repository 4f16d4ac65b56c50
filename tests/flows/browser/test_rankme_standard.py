"""RankME as published, in real Chromium: the standard above every task with its value
(desktop, phone, without JavaScript), the per-output content checklist stored with the
judgement, long numbers refused with a visible error instead of being cut."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from annotations.models import Campaign, Judgement, JudgementScore
from tests.factories import CampaignFactory, CriterionFactory, task_with_outputs
from tests.flows.browser.conftest import settled_width, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"
SHOTS.mkdir(parents=True, exist_ok=True)
STANDARD_INPUT = "name[The Phoenix], eatType[pub], food[French], area[riverside]"
STANDARD_TEXT = "The Phoenix is a pub by the riverside that serves French food."
TEXTS = (
    "Cotto is a coffee shop near The Bakers.",
    "Near The Bakers, there is a coffee shop named Cotto, which serves good coffee.",
    "Cotto coffee shop Bakers near near.",
)


def _campaign(slug: str) -> Campaign:
    campaign = CampaignFactory(
        slug=slug,
        name="Rate restaurant descriptions",
        status=Campaign.Status.LIVE,
        tasks_per_worker=2,
        accept_link=True,
    )
    criterion = CriterionFactory(
        campaign=campaign,
        name="informativeness",
        question="How informative is the utterance, relative to the standard?",
        show_input=True,
        standard_input=STANDARD_INPUT,
        standard_text=STANDARD_TEXT,
        content_checks=["added", "missing", "perfect"],
    )
    for _ in range(2):
        task_with_outputs(campaign=campaign, criterion=criterion, texts=TEXTS)
    return campaign


def _to_first_task(page: Any, url: str, slug: str) -> None:
    page.set_default_timeout(30_000)  # the machine is shared: be patient, not flaky
    page.goto(f"{url}/w/{slug}/")
    # The consent page explains the scale with the same standard.
    standard = page.locator("[data-standard]").first
    assert STANDARD_TEXT in standard.inner_text()
    if slug == "rankme-390-js":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "consent-phone.png"), full_page=True)
    page.get_by_label("I have read the information above").check()
    page.get_by_role("button", name="Start").click()
    page.locator("#task-form").wait_for()
    # Measure the page whole: the form's start can be on screen while the rest of the
    # document is still parsed (one layout check failed once on a loaded machine).
    page.wait_for_load_state("load")


def _assert_standard_first(page: Any) -> None:
    standard = page.locator("section[data-standard]")
    assert standard.is_visible()
    text = " ".join(standard.text_content().split())  # as written, not as styled
    assert "Here is the STANDARD to relate to" in text and STANDARD_TEXT in text
    assert page.locator("[data-standard-value] strong").inner_text() == "100"
    assert "French" in text  # the standard's input: the criterion shows inputs
    box = standard.bounding_box()
    first_output = page.locator(".w-output").first.bounding_box()
    task_label = page.get_by_text("Here is the TASK for you").bounding_box()
    assert box is not None and first_output is not None and task_label is not None
    # The standard, its value included, ends above the task and its first output.
    assert box["y"] + box["height"] <= task_label["y"] <= first_output["y"]
    width = settled_width(page, page.viewport_size["width"])
    assert width <= page.viewport_size["width"], f"{width}px wide: scrolls sideways"


@pytest.mark.parametrize(
    ("width", "javascript"), [(1100, True), (390, True), (390, False), (1100, False)]
)
def test_worker_sees_the_standard_and_its_value_before_any_output(
    new_page, live_server, width, javascript
):
    slug = f"rankme-{width}-{'js' if javascript else 'nojs'}"
    _campaign(slug)
    page = new_page(width=width, java_script_enabled=javascript)
    _to_first_task(page, live_server.url, slug)
    _assert_standard_first(page)
    if javascript:
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = "desktop" if width > 500 else "phone"
        page.screenshot(path=str(SHOTS / f"magnitude-task-{name}.png"), full_page=True)


@pytest.mark.parametrize("javascript", [True, False])
def test_the_checklist_is_stored_with_the_judgement(new_page, live_server, javascript):
    slug = f"rankme-checks-{'js' if javascript else 'nojs'}"
    _campaign(slug)
    page = new_page(java_script_enabled=javascript)
    _to_first_task(page, live_server.url, slug)
    outputs = page.locator(".w-output")
    for i, score in enumerate(("150", "100", "40")):
        outputs.nth(i).locator("input[data-score]").fill(score)
    outputs.nth(0).get_by_label("It reflects the input perfectly").check()
    outputs.nth(2).get_by_label("It misses information from the input").check()
    outputs.nth(2).get_by_label("It contains information not in the input").check()
    # RankME asks for an answer about every output: B has none yet.
    page.get_by_role("button", name="Submit and continue").click()
    summary = page.locator(".w-error-summary")
    summary.wait_for()
    assert "Output B: tick at least one statement" in summary.inner_text()
    assert Judgement.objects.count() == 0
    outputs.nth(1).get_by_label("It contains information not in the input").check()
    page.get_by_role("button", name="Submit and continue").click()
    page.get_by_text("Task 2 of 2").wait_for()
    judgement = Judgement.objects.get()
    order = judgement.assignment.display_order
    checks = dict(JudgementScore.objects.filter(judgement=judgement).values_list("slot", "checks"))
    assert checks[order[0]] == ["perfect"]
    assert checks[order[1]] == ["added"]
    assert checks[order[2]] == ["added", "missing"]


def test_seven_digits_stay_typed_and_get_a_visible_error(new_page, live_server):
    slug = "rankme-digits"
    _campaign(slug)
    page = new_page()
    _to_first_task(page, live_server.url, slug)
    first = page.locator(".w-output").first
    field = first.locator("input[data-score]")
    field.press_sequentially("1234567")
    assert field.input_value() == "1234567"  # nothing cut while typing
    assert "up to 6 digits" in first.locator(".w-rule").inner_text()
    outputs = page.locator(".w-output")
    outputs.nth(1).locator("input[data-score]").fill("100")
    outputs.nth(2).locator("input[data-score]").fill("50")
    for i in range(3):
        outputs.nth(i).get_by_label("It reflects the input perfectly").check()
    page.get_by_role("button", name="Submit and continue").click()
    error = page.locator(".w-output").first.locator(".w-error")
    error.wait_for()
    assert "1234567 has 7 digits" in error.inner_text()
    assert page.locator(".w-output").first.locator("input[data-score]").input_value() == "1234567"
    assert Judgement.objects.count() == 0


@pytest.mark.parametrize("javascript", [True, False])
def test_too_fast_warning_sits_by_the_button_with_the_real_seconds(
    new_page, live_server, javascript
):
    slug = f"rankme-fast-{'js' if javascript else 'nojs'}"
    campaign = _campaign(slug)
    Campaign.objects.filter(pk=campaign.pk).update(min_seconds_per_task=600)
    page = new_page(width=390, java_script_enabled=javascript)
    _to_first_task(page, live_server.url, slug)
    outputs = page.locator(".w-output")
    for i, score in enumerate(("150", "100", "40")):
        outputs.nth(i).locator("input[data-score]").fill(score)
        outputs.nth(i).get_by_label("It reflects the input perfectly").check()
    page.get_by_role("button", name="Submit and continue").click()
    warning = page.get_by_role("alert").filter(has_text="You spent")
    warning.wait_for()
    page.wait_for_load_state("load")  # positions are read from the styled page
    text = warning.inner_text()
    assert "seconds on this task; we expect at least 600" in text
    spent = float(text.split("You spent ")[1].split(" seconds")[0])
    assert 0 < spent < 600
    # By the buttons, in view, not at the top of a long page; the confirming button is the
    # only one to press (a second "Submit and continue" only warned again).
    confirm = page.get_by_role("button", name="I have read every output: submit")
    assert page.get_by_role("button", name="Submit and continue").count() == 0
    w = warning.bounding_box()
    assert w is not None
    assert page.locator(".w-output").last.bounding_box()["y"] < w["y"]
    # Focus is on the confirming button (autofocus applies at the next rendering step).
    wait_until(
        page,
        "label => (document.activeElement.textContent || '').trim() === label",
        confirm.inner_text().strip(),
    )
    # The worker sees it without scrolling: the warning and its button are in the viewport.
    wait_until(
        page,
        """() => [...document.querySelectorAll('#too-fast, #too-fast button')].every(el => {
            const r = el.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= window.innerHeight;
        })""",
    )
    if javascript:
        page.screenshot(path=str(SHOTS / "too-fast-phone.png"))
    confirm.click()
    page.get_by_text("Task 2 of 2").wait_for()
    assert Judgement.objects.get().too_fast is True


@pytest.mark.parametrize("javascript", [True, False])
def test_designer_preset_fills_the_form_and_saves_what_it_shows(
    new_page, live_server, settings, javascript
):
    from django.contrib.auth import get_user_model

    from tests.factories import OutputFactory

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = get_user_model().objects.create_user("dana", password="designer-pass")
    campaign = CampaignFactory(slug="presets", owner=user)
    campaign.memberships.create(user=user, role="owner")
    OutputFactory(item__campaign=campaign, text="The Eagle is a cheap pub.")
    page = new_page(java_script_enabled=javascript)
    page.set_default_timeout(30_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/campaigns/presets/criteria/")
    page.get_by_label("Username").fill("dana")
    page.get_by_label("Password").fill("designer-pass")
    page.get_by_role("button", name="Sign in").click()
    # The criteria page loaded (the load event): htmx, a deferred script, listens now.
    page.wait_for_url(re.compile(r"/criteria/$"), wait_until="load")
    page.get_by_label("Preset").select_option("grammar")
    if not javascript:
        page.get_by_role("button", name="Fill in the form").click()
    page.get_by_text("Filled in from the preset grammar").wait_for()
    assert page.get_by_label("Scale").input_value() == "likert"
    assert "Perfectly grammatical" in page.get_by_label("Likert levels").input_value()
    page.get_by_role("button", name="Add criterion").click()
    page.get_by_text("Criterion “grammar” added").wait_for()
    grammar = campaign.criteria.get(name="grammar")
    assert grammar.scale == "likert" and len(grammar.likert_levels) == 5
    page.wait_for_load_state("load")
    page.get_by_label("Preset").select_option("informativeness")
    if not javascript:
        page.get_by_role("button", name="Fill in the form").click()
    page.get_by_text("Filled in from the preset informativeness").wait_for()
    assert page.locator("[data-standard-prompt]").is_visible()
    page.get_by_label("Standard: an uploaded output").select_option(index=1)
    if javascript:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "designer-informativeness-preset.png"), full_page=True)
    page.get_by_role("button", name="Add criterion").click()
    page.get_by_text("Criterion “informativeness” added").wait_for()
    saved = campaign.criteria.get(name="informativeness")
    assert saved.scale == "magnitude" and saved.standard_text == "The Eagle is a cheap pub."
    assert saved.content_checks == ["added", "missing", "perfect"]


@pytest.mark.parametrize("javascript", [True, False])
def test_designer_finds_a_standard_beyond_the_first_200_outputs(
    new_page, live_server, settings, javascript
):
    """260 outputs: the picker lists 200 and says so; a search by item id finds the
    rest (htmx swaps the list as one types; without JavaScript the Search button
    brings the form back as typed), and the output found becomes the standard."""
    from django.contrib.auth import get_user_model

    from annotations.models import Output
    from tests.factories import ItemFactory, OutputFactory, SystemFactory

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = get_user_model().objects.create_user("dana", password="designer-pass")
    campaign = CampaignFactory(slug="many", owner=user)
    campaign.memberships.create(user=user, role="owner")
    systems = [SystemFactory(campaign=campaign, label=f"sys{s}") for s in range(5)]
    for n in range(52):
        item = ItemFactory(campaign=campaign, external_id=f"mr{n}", input=f"name[Place {n}]")
        for system in systems:
            OutputFactory(item=item, system=system, text=f"{system.label} on place {n}.")
    page = new_page(java_script_enabled=javascript)
    page.set_default_timeout(30_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/campaigns/many/criteria/")
    page.get_by_label("Username").fill("dana")
    page.get_by_label("Password").fill("designer-pass")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/criteria/$"), wait_until="load")
    page.get_by_label("Preset").select_option("informativeness")
    if not javascript:
        page.get_by_role("button", name="Fill in the form").click()
    page.get_by_text("Filled in from the preset informativeness").wait_for()
    assert page.get_by_text("the first 200 are listed: search to find the others").is_visible()
    page.get_by_label("Question").fill("How informative is it, really?")
    page.get_by_label("Find an output by item id or text").fill("mr51")
    if not javascript:
        page.get_by_role("button", name="Search").click()
        page.wait_for_load_state("load")
    page.get_by_text("5 outputs match “mr51”").wait_for()
    assert page.get_by_label("Question").input_value() == "How informative is it, really?"
    far = Output.objects.get(item__external_id="mr51", system__label="sys3")
    page.get_by_label("Standard: an uploaded output").select_option(str(far.pk))
    if javascript:
        page.screenshot(path=str(SHOTS / "designer-standard-search.png"), full_page=True)
    page.get_by_role("button", name="Add criterion").click()
    page.get_by_text("Criterion “informativeness” added").wait_for()
    saved = campaign.criteria.get(name="informativeness")
    assert saved.standard_output_id == far.pk and saved.standard_text == "sys3 on place 51."
    assert saved.question == "How informative is it, really?"


def _start(page, live_server, campaign: Campaign, pid: str) -> None:
    page.goto(f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID={pid}&STUDY_ID=st")


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
