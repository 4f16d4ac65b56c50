"""A designer in real Chromium: sign in, create a campaign from an upload, set criteria,
preview the worker's page, build, launch, watch the monitor and rank."""

from __future__ import annotations

import os
import re

import pytest

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
    page.get_by_label("Preset").select_option("quality")
    page.get_by_role("button", name="Add criterion").click()
    page.get_by_label("Preset").select_option("naturalness")
    page.get_by_role("button", name="Add criterion").click()
    rows = page.locator("table.table tbody tr")
    assert rows.count() == 2
    assert "hidden" in rows.nth(1).inner_text()  # naturalness hides the MR
    screenshot("designer-03-criteria")

    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Plan").click()
    page.get_by_label("Pay per hour").fill("15")
    page.get_by_label("Expected seconds per task").fill("90")
    page.get_by_role("button", name="Recalculate").click()
    page.locator("#plan-result", has_text="at 15.00 an hour").wait_for()
    # 4 items x 1 task x 2 criteria x 3 judgements = 24 judgements.
    assert "24" in page.locator("#plan-result dl").inner_text()
    screenshot("designer-04-plan")

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
    from tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return str(SCREENSHOTS / f"{name}.png")
