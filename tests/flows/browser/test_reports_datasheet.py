"""The datasheet page in real Chromium at phone and desktop width, without JavaScript:
the filled answers, the open questions' form, saving. Screenshots in artifacts/screenshots/."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from annotations.models import Criterion
from reports.models import Datasheet
from tests.factories import CampaignFactory, CriterionFactory, task_with_outputs
from tests.flows.browser.conftest import save_screenshot, settled_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1100])
def test_datasheet_page_fills_and_saves(new_page, live_server, settings, width):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    owner = User.objects.create_user("ed", password="designer-pass-1")
    campaign = CampaignFactory(owner=owner, name="Datasheet demo", slug="ds")
    criterion = CriterionFactory(
        campaign=campaign, name="quality", question="How good is this text overall?"
    )
    CriterionFactory(
        campaign=campaign,
        name="fluency",
        question="Is it fluent?",
        scale=Criterion.Scale.SLIDER,
        scale_settings={},
        show_input=False,
    )
    task_with_outputs(campaign=campaign, criterion=criterion)
    page = new_page(java_script_enabled=False, width=width, height=900)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("ed")
    page.get_by_label("Password").fill("designer-pass-1")
    page.get_by_role("button", name="Sign in").click()
    page.goto(live_server.url + "/campaigns/ds/datasheet/")
    assert page.get_by_text("How good is this text overall?").first.is_visible()
    assert settled_width(page, width) <= width
    save_screenshot(page, f"datasheet-{width}")
    page.locator('textarea[name="a:5.1"]').fill("Approved by the ethics board, ref 12.")
    page.get_by_role("button", name="Save answers").click()
    assert page.get_by_text("Datasheet answers saved.").is_visible()
    assert Datasheet.objects.get(campaign=campaign).answers["5.1"].startswith("Approved")
    assert page.locator('textarea[name="a:5.1"]').input_value().startswith("Approved")
