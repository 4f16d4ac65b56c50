"""A designer in real Chromium: sign in, create a campaign from an upload, set criteria,
preview the worker's page, build, launch, watch the monitor and rank."""

from __future__ import annotations

import os
import re

import pytest

from tests.flows.browser.conftest import settled_width

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUTPUTS = "item_id,input,system,output\n" + "".join(
    f'{i},"name[Place {i}], eatType[pub], area[riverside]",{s},"{text}"\n'
    for i in range(1, 5)
    for s, text in (
        ("tgen", f"Place {i} is a pub by the riverside."),
        ("slug", f"Place {i} is a riverside pub."),
        ("adapt", f"There is a pub called Place {i} near the river."),
        ("zhang", f"Place {i}, a pub, is in the riverside area."),
        ("forge1", f"Place {i} pub riverside."),
    )
)


def test_designer_sets_up_previews_builds_and_launches(
    page, live_server, screenshot, tmp_path, settings
):
    from django.contrib.auth import get_user_model

    from annotations.models import Campaign

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_user("dana", password="designer-pass")
    upload = tmp_path / "outputs.csv"
    upload.write_text(OUTPUTS, encoding="utf-8")

    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign in").click()
    page.get_by_label("Username").fill("dana")
    page.get_by_label("Password").fill("designer-pass")
    screenshot("designer-01-login")
    page.get_by_role("button", name="Sign in").click()

    page.get_by_role("link", name="New campaign").click()
    page.get_by_label("Name").fill("Riverside pilot")
    page.get_by_label("Slug").fill("riverside")
    page.get_by_role("button", name="Create campaign").click()
    page.get_by_text("Upload outputs next").wait_for()

    page.set_input_files("input[type=file]", str(upload))
    page.get_by_role("button", name="Upload").click()
    page.get_by_text("Imported 20 outputs").wait_for()
    for label in ("tgen", "slug", "adapt", "zhang", "forge1"):
        assert page.locator(".chip", has_text=label).count() == 1
    screenshot("designer-02-uploaded")

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Criteria").click()
    # The criteria page loaded (the load event): htmx, a deferred script, listens now.
    page.wait_for_url(re.compile(r"/criteria/$"), wait_until="load")
    for preset in ("quality", "naturalness"):
        # A preset fills the form (htmx swaps it in); the designer then picks the
        # RankME standard among the uploaded outputs and adds what the form shows.
        page.get_by_label("Preset").select_option(preset)
        page.get_by_text(f"Filled in from the preset {preset}").wait_for()
        standard = page.get_by_label("Standard: an uploaded output")
        standard.select_option(index=1)
        page.get_by_role("button", name="Add criterion").click()
        page.get_by_text(f"Criterion “{preset}” added").wait_for()
        page.wait_for_load_state("load")
    rows = page.locator("table.table tbody tr")
    assert rows.count() == 2
    assert "hidden" in rows.nth(1).inner_text()  # naturalness hides the MR
    screenshot("designer-03-criteria")

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Plan").click()
    # The plan's own form: the power panel, which htmx loads into the page, has its own
    # pay, seconds and "Recalculate the judgements needed". Wait for it, so that the
    # test does not depend on which arrives first.
    page.locator("#power-report").wait_for()
    recalculate = page.get_by_role("button", name="Recalculate", exact=True)
    plan_form = page.locator("form", has=recalculate)
    plan_form.get_by_label("Pay per hour").fill("15")
    plan_form.get_by_label("Expected seconds per task").fill("90")
    recalculate.click()
    page.locator("#plan-result", has_text="at £15.00 an hour").wait_for()
    # 4 items x 1 task x 2 criteria x 3 judgements = 24 judgements.
    assert "24" in page.locator("#plan-result dl").inner_text()
    # Not launchable yet: nothing for workers to agree to. The plan says so and links
    # to the settings, where the designer writes it.
    assert page.locator("#consent-missing").is_visible()
    screenshot("designer-04-plan")
    page.get_by_role("link", name="Write it in the settings").click()
    page.get_by_label("Consent text").fill(
        "Your scores are stored without your name. You may stop at any time."
    )
    page.get_by_role("button", name="Save settings").click()
    page.get_by_text("Settings saved.").wait_for()
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Plan").click()
    page.locator("#plan-result").wait_for()
    assert page.locator("#consent-missing").count() == 0

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Overview").click()
    page.get_by_role("button", name="Build tasks").click()
    page.get_by_text("Tasks built.").wait_for()
    with page.context.expect_page() as preview_info:
        page.get_by_role("link", name="Preview the worker's page").click()
    preview = preview_info.value
    preview.wait_for_load_state()
    assert preview.url.endswith("/w/riverside/preview/")
    preview.screenshot(path=_shot_path("designer-05-preview"), full_page=True)
    preview.close()

    page.get_by_role("button", name="Launch").click()
    page.locator(".badge-live").first.wait_for()
    prolific = page.locator("input[readonly]").first.input_value()
    assert re.search(r"/w/riverside/\?PROLIFIC_PID=\{\{%PROLIFIC_PID%\}\}", prolific)
    screenshot("designer-06-live")
    assert Campaign.objects.get(slug="riverside").status == "live"

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Monitor").click()
    page.locator("#live[hx-trigger='every 5s']").wait_for()
    screenshot("designer-07-monitor")


def _shot_path(name: str) -> str:
    from tests.flows.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return str(SCREENSHOTS / f"{name}.png")


# The whole designer journey at phone and desktop width ----------------------------------------

H4_SHOTS = "/tmp/h4"
PHONE, DESKTOP = 390, 1280


def _no_sideways_scroll(page: object, width: int, where: str) -> None:
    """The page is no wider than the window (wide tables scroll in their own box)."""
    scroll = settled_width(page, width)
    assert scroll <= width, f"{where}: the page is {scroll} px wide in a {width} px window"


def _shot(page: object, name: str) -> None:
    os.makedirs(H4_SHOTS, exist_ok=True)
    page.screenshot(path=f"{H4_SHOTS}/{name}.png", full_page=True)  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_whole_designer_journey_at_phone_and_desktop_width(
    new_page, live_server, tmp_path, settings, width
):
    """Sign in, create from a file, criteria, design (an impossible one refused), plan,
    preview before building, build (the plan held), launch, monitor, pause, close,
    clone, archive; no page wider than the window."""
    from django.contrib.auth import get_user_model

    from annotations.models import Campaign, Task

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_user("dana", password="designer-pass")
    upload = tmp_path / "outputs.csv"
    # 5 systems on 4 items, but "forge1" has no output for items 3 and 4.
    upload.write_text(
        "\n".join(line for line in OUTPUTS.splitlines() if not re.match(r"[34],.*,forge1,", line))
        + "\n",
        encoding="utf-8",
    )
    page = new_page(width=width, height=800)
    tag = "phone" if width == PHONE else "desktop"
    nav = page.get_by_role("navigation", name="Campaign")

    def check(name: str) -> None:
        _no_sideways_scroll(page, width, name)
        _shot(page, f"{tag}-{name}")

    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign in").first.click()
    page.get_by_label("Username").fill("dana")
    page.get_by_label("Password").fill("designer-pass")
    page.get_by_role("button", name="Sign in").click()

    page.get_by_role("link", name="New campaign").click()
    page.get_by_label("Name").fill("Riverside pilot")
    page.get_by_label("Slug").fill("riverside")
    page.get_by_role("button", name="Create campaign").click()
    page.get_by_text("Upload outputs next").wait_for()
    page.set_input_files("input[type=file]", str(upload))
    page.get_by_role("button", name="Upload").click()
    page.get_by_text("Imported 18 outputs").wait_for()
    check("01-uploaded")

    nav.get_by_role("link", name="Criteria").click()
    # The criteria page loaded (the load event): htmx, a deferred script, listens now.
    page.wait_for_url(re.compile(r"/criteria/$"), wait_until="load")
    page.get_by_label("Preset").select_option("quality")
    page.get_by_text("Filled in from the preset quality").wait_for()
    page.get_by_label("Standard: an uploaded output").select_option(index=1)
    page.get_by_role("button", name="Add criterion").click()
    page.get_by_text("Criterion “quality” added").wait_for()
    check("02-criteria")

    # An impossible design is refused beside its field, in words.
    nav.get_by_role("link", name="Settings").click()
    page.get_by_label("Outputs per task").fill("7")
    page.locator("#id_attention_check_rate").fill("0.6")
    page.locator("#id_repeat_rate").fill("0.4")
    page.get_by_role("button", name="Save settings").click()
    page.get_by_text("7 is more than the 5 systems").wait_for()
    page.get_by_text("no real task would be left").wait_for()
    assert "constraint" not in page.content().lower()
    check("03-design-refused")
    page.get_by_label("Outputs per task").fill("3")
    page.locator("#id_attention_check_rate").fill("0")
    page.locator("#id_repeat_rate").fill("0")
    page.get_by_label("Instructions").fill(
        "## Read first\n\n- Read **every** text.\n- Scores relate to the standard."
    )
    page.get_by_label("Consent text").fill("You may stop at any time.")
    page.get_by_role("button", name="Save settings").click()
    page.get_by_text("Settings saved.").wait_for()

    nav.get_by_role("link", name="Plan").click()
    planned = int(page.locator("#plan-result dl dd").first.inner_text().split()[0])
    # Items 1-2: 5 systems in tasks of 3 = 2 tasks; items 3-4: 4 systems = 2 tasks.
    assert planned == 8
    check("04-plan")

    # The worker's pages before any task is built: consent/instructions and a task.
    page.goto(f"{live_server.url}/campaigns/riverside/preview/intro/")
    # a designer's "##" sits under the page's own h2 sections (common/markdown.py)
    assert page.locator("h4", has_text="Read first").count() == 1
    page.get_by_text("Compare each text with a standard").wait_for()
    check("05-preview-intro")
    page.get_by_role("link", name="Preview a task").click()
    page.locator("form[data-scale='magnitude']").wait_for()
    assert page.locator(".w-output").count() == 3
    check("06-preview-task")
    assert not Task.objects.filter(campaign__slug="riverside").exists()

    page.goto(f"{live_server.url}/campaigns/riverside/")
    page.get_by_role("button", name="Build tasks").click()
    page.get_by_text("Tasks built.").wait_for()
    assert Task.objects.filter(campaign__slug="riverside", kind="regular").count() == planned
    page.get_by_role("button", name="Launch").click()
    page.locator(".badge-live").first.wait_for()
    check("07-live")
    nav.get_by_role("link", name="Monitor").click()
    page.locator("#judgement-totals", has_text=f"0 of {planned * 3}").wait_for()
    check("08-monitor")

    nav.get_by_role("link", name="Overview").click()
    assert f"0 of {planned * 3}" in page.locator("#judgement-totals").inner_text()
    page.get_by_role("button", name="Pause").click()
    page.locator(".badge-paused").first.wait_for()
    # Closing cannot be undone: one click only opens what it does and the real button.
    page.get_by_text("Close…").click()
    assert page.get_by_text("Closing ends the campaign for good").is_visible()
    assert Campaign.objects.get(slug="riverside").status == "paused"
    check("09-close-confirm")
    page.get_by_role("button", name="Close the campaign for good").click()
    page.locator(".badge-closed").first.wait_for()
    check("09-closed")

    page.get_by_role("link", name="Clone for a new round").click()
    check("10-clone")
    page.get_by_label("Slug").fill("riverside-2")
    page.get_by_role("button", name="Create the new round").click()
    page.get_by_text("created from").wait_for()
    clone = Campaign.objects.get(slug="riverside-2")
    assert clone.status == "draft" and clone.criteria.get().standard_text

    page.goto(f"{live_server.url}/campaigns/riverside/")
    page.get_by_role("link", name="Delete…").click()
    page.locator("#lost").wait_for()
    check("11-delete-confirm")
    page.get_by_role("button", name="Archive instead").click()
    page.locator(".badge-archived").first.wait_for()
    page.goto(live_server.url + "/")
    page.get_by_text("Archived campaigns (1)").wait_for()
    check("12-home")
    assert Campaign.objects.get(slug="riverside").status == "archived"


def test_no_designer_page_scrolls_sideways_at_phone_width(new_page, live_server):
    """Every designer page of a judged campaign (wide monitor tables, long links) at
    390 px: document.scrollWidth stays within the window."""
    from annotations.models import CampaignMembership
    from tests.annotations.designer_data import add_member, judged_campaign, users

    people = users()
    owner = people["owner"]
    owner.set_password("owner-pass")
    owner.save()
    campaign = judged_campaign(owner=owner, n_workers=6)
    # a long name without a break (the walk-through: pages 2,530 px wide) wraps too
    campaign.name = "Unbroken" * 25  # 200 characters, the field's limit
    campaign.save(update_fields=["name"])
    add_member(campaign, owner, CampaignMembership.Role.OWNER)
    worker = campaign.workers.first()
    assert worker is not None
    worker.excluded, worker.exclusion_reason = True, "Same score for every output, twice"
    worker.save()
    page = new_page(width=PHONE, height=800)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill("owner-pass")
    page.get_by_role("button", name="Sign in").click()
    slug = campaign.slug
    pages = {
        "home": "/",
        "new": "/campaigns/new/",
        "account": "/campaigns/account/",
        "overview": f"/campaigns/{slug}/",
        "criteria": f"/campaigns/{slug}/criteria/",
        "design": f"/campaigns/{slug}/settings/",
        "plan": f"/campaigns/{slug}/plan/",
        "monitor": f"/campaigns/{slug}/monitor/",
        "clone": f"/campaigns/{slug}/clone/",
        "delete": f"/campaigns/{slug}/delete/",
        "preview-intro": f"/campaigns/{slug}/preview/intro/",
    }
    too_wide = {}
    for name, path in pages.items():
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        _shot(page, f"phone-page-{name}")
        scroll = settled_width(page, PHONE)
        if scroll > PHONE:
            too_wide[name] = scroll
    assert too_wide == {}
    # The monitor's wide tables scroll inside their own box instead.
    page.goto(live_server.url + f"/campaigns/{slug}/monitor/")
    box = page.locator("#workers .scroll")
    assert box.evaluate("e => e.scrollWidth > e.clientWidth")
    assert "Same score for every output, twice" in box.inner_text()
    page.set_viewport_size({"width": DESKTOP, "height": 900})
    _shot(page, "desktop-page-monitor")


def test_preview_before_building_in_every_scale_at_phone_width(new_page, live_server):
    """A draft with a magnitude, a Likert and a slider criterion and no tasks: the task
    preview shows a sample of the uploaded outputs in each scale, within 390 px."""
    from annotations.core.outputs import OutputRow
    from annotations.models import Criterion
    from annotations.services.campaigns import campaign_create
    from annotations.services.criteria import criterion_from_preset
    from annotations.services.outputs import outputs_store
    from tests.annotations.designer_data import users

    owner = users()["owner"]
    owner.set_password("owner-pass")
    owner.save()
    campaign = campaign_create(slug="scales", name="Every scale", owner=owner, outputs_per_task=3)
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=str(i),
                input=f"name[Place {i}], eatType[pub], area[riverside]",
                system=s,
                text=f"{s}: Place {i} is a pub by the riverside, with a long sentence.",
            )
            for i in range(1, 3)
            for s in ("tgen", "slug", "adapt", "zhang")
        ],
    )
    criterion_from_preset(campaign=campaign, preset="quality")
    criterion_from_preset(campaign=campaign, preset="fluency")
    Criterion.objects.create(
        campaign=campaign,
        name="overall",
        question="How good is it overall?",
        scale="slider",
        position=5,
    )
    page = new_page(width=PHONE, height=800)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill("owner-pass")
    page.get_by_role("button", name="Sign in").click()
    for name, scale in (("quality", "magnitude"), ("fluency", "likert"), ("overall", "slider")):
        page.goto(f"{live_server.url}/w/scales/preview/?criterion={name}")
        page.locator(f"form[data-scale='{scale}']").wait_for()
        assert page.locator(".w-output").count() == 3
        _no_sideways_scroll(page, PHONE, f"preview {scale}")
        _shot(page, f"phone-preview-{scale}")
    assert not campaign.tasks.exists()
