"""The rating import page in real Chromium: a preset fills the mapping form, the preview
of the first rows comes in by htmx (the chosen file stays), saving the mapping as a
preset, importing; and the same without JavaScript."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.flows.browser.conftest import save_screenshot, settled_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login_campaign(new_page, live_server, settings, *, js: bool = True, width: int = 1100):
    from django.contrib.auth import get_user_model

    from annotations.models import CampaignMembership
    from annotations.services.campaigns import campaign_create

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = get_user_model().objects.create_user("ed", password="designer-pass-1")
    campaign = campaign_create(slug="byo", name="Bring your own")
    CampaignMembership.objects.create(
        campaign=campaign, user=user, role=CampaignMembership.Role.OWNER
    )
    page = new_page(java_script_enabled=js, width=width, height=900)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("ed")
    page.get_by_label("Password").fill("designer-pass-1")
    page.get_by_role("button", name="Sign in").click()
    return page, campaign


def _mturk_file(tmp_path: Path) -> Path:
    from tests.annotations.importing.parsers.test_presets import mturk_file

    return mturk_file(tmp_path)


@pytest.mark.parametrize("width", [1100, 390])
def test_mapping_form_preview_save_import(new_page, live_server, settings, tmp_path, width):
    from annotations.models import Judgement, RatingMapping

    page, campaign = _login_campaign(new_page, live_server, settings, width=width)
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/")
    page.get_by_role("link", name="Bring your own judgements").click()
    page.get_by_label("Start from a preset").select_option("mturk")
    page.get_by_role("button", name="Use this preset").click()
    # The click loads a new page: wait until its scripts (htmx) run, or the preview below
    # is a plain form post that reloads the page and empties the file input (a flake
    # seen once in CI at 390 px).
    page.wait_for_load_state("load")
    assert page.get_by_label("System:", exact=True).input_value() == "Input.system{i}"
    page.get_by_label("File:", exact=True).set_input_files(str(_mturk_file(tmp_path)))
    page.get_by_role("button", name="Preview the first rows").click()
    table = page.locator("#preview-table")
    table.wait_for()
    text = table.inner_text()
    assert "a = 3" in text and "c = 2" in text and "w2" in text
    assert Judgement.objects.count() == 0
    # htmx swapped only the preview: the chosen file is still there.
    assert page.locator("#id_file").evaluate("el => el.files.length") == 1
    assert settled_width(page, width) <= width
    page.locator("#mapped-preview").scroll_into_view_if_needed()
    save_screenshot(page, f"mapped-preview-{width}")

    page.get_by_label("Save as preset named").fill("my-turk")
    page.get_by_role("button", name="Save as preset").click()
    page.get_by_text("Saved the mapping as the preset 'my-turk'.").wait_for()
    assert RatingMapping.objects.filter(campaign=campaign, name="my-turk").exists()
    assert page.get_by_label("Worker").input_value() == "WorkerId"

    page.get_by_label("File:", exact=True).set_input_files(str(_mturk_file(tmp_path)))
    page.get_by_role("button", name="Import", exact=True).click()
    page.get_by_text("Imported 2 judgements from 2 rows").wait_for()
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 2
    save_screenshot(page, f"mapped-imported-{width}")


def test_preview_error_without_javascript(new_page, live_server, settings, tmp_path):
    from annotations.models import Judgement

    page, campaign = _login_campaign(new_page, live_server, settings, js=False)
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/ratings/import/?preset=mturk")
    page.get_by_label("Item").fill("Input.segment")
    page.get_by_label("File:", exact=True).set_input_files(str(_mturk_file(tmp_path)))
    page.get_by_role("button", name="Preview the first rows").click()
    error = page.locator("#mapped-preview")
    error.wait_for()
    text = error.inner_text()
    assert "Batch_1_batch_results.csv" in text and "Input.segment" in text
    assert "Input.item_id" in text  # the file's columns are listed
    error.scroll_into_view_if_needed()
    save_screenshot(page, "mapped-preview-error-nojs")
    assert Judgement.objects.count() == 0


@pytest.mark.parametrize("problem", ["missing-column", "bad-bytes", "empty-file"])
def test_preview_error_with_javascript_is_shown_in_the_panel(
    new_page, live_server, settings, tmp_path, problem
):
    """The preview comes in by htmx, which swaps in 2xx responses only: a refused file
    used to leave the panel saying "Choose a file", the error unseen."""
    from annotations.models import Judgement

    page, campaign = _login_campaign(new_page, live_server, settings)
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/ratings/import/?preset=mturk")
    page.wait_for_load_state("load")  # htmx listens now
    path = _mturk_file(tmp_path)
    if problem == "missing-column":
        page.get_by_label("Item").fill("Input.segment")
        expected = "Input.segment"
    elif problem == "bad-bytes":
        path.write_bytes(path.read_bytes().replace(b"w2", b"w\xff2", 1))
        expected = "UTF-8"
    else:
        path.write_bytes(b"")
        expected = "The submitted file is empty"  # the form's own check, on its field
    page.get_by_label("File:", exact=True).set_input_files(str(path))
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Preview the first rows").click()
    assert answer.value.request.headers.get("hx-request") == "true"  # by htmx, not a reload
    panel = page.locator("#mapped-preview")
    panel.locator("[role=alert]").wait_for()
    text = panel.inner_text()
    assert expected in text and (problem == "empty-file" or path.name in text)
    assert "Choose a file" not in text
    # htmx swapped only the panel: the chosen file is still there to fix the mapping.
    assert page.locator("#id_file").evaluate("el => el.files.length") == 1
    save_screenshot(page, f"mapped-preview-error-js-{problem}")
    assert Judgement.objects.count() == 0


@pytest.mark.parametrize("width", [1100, 390])
def test_preview_names_scores_off_the_levels_and_a_mapping_refusal(
    new_page, live_server, settings, tmp_path, width
):
    """A 1-7 fluency file: the preview states the preset's levels 1-5 and now says that
    the 7 shown is not among them (the import refused it after a clean preview). A worker
    read from the item's column is refused on the page, naming the setting."""
    from annotations.models import Judgement
    from tests.annotations.importing.conftest import write_csv

    page, campaign = _login_campaign(new_page, live_server, settings, width=width)
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/ratings/import/")
    page.wait_for_load_state("load")
    path = write_csv(
        tmp_path / "seven.csv",
        [["judge", "seg", "team1", "team2", "flu1", "flu2"], ["w1", "1", "A", "B", "7", "3"]],
    )
    page.get_by_label("Worker").fill("judge")
    page.get_by_label("Item").fill("seg")
    page.get_by_label("System:", exact=True).fill("team{i}")
    page.locator("#id_criteria").fill("fluency: flu{i}")
    page.get_by_label("File:", exact=True).set_input_files(str(path))
    page.get_by_role("button", name="Preview the first rows").click()
    scales = page.locator("#preview-scales")
    scales.wait_for()
    said = scales.inner_text()
    assert "The rows shown hold 7, not among the levels of the criterion preset" in said
    assert settled_width(page, width) <= width
    scales.scroll_into_view_if_needed()
    save_screenshot(page, f"mapped-preview-off-levels-{width}")

    page.get_by_label("Worker").fill("seg")
    page.get_by_role("button", name="Preview the first rows").click()
    panel = page.locator("#mapped-preview")
    panel.get_by_text("'seg' is also the item column").wait_for()
    assert "field 'worker'" in panel.inner_text()
    save_screenshot(page, f"mapped-refused-same-column-{width}")
    assert Judgement.objects.count() == 0
