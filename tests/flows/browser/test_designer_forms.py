"""The designer's forms in real Chromium: the new-campaign form's slug follows the name as
it is typed, until the designer edits the slug (emptied, it follows again); the criterion
form shows the chosen scale's fields only (redrawn by htmx, or by a button without
JavaScript)."""

from __future__ import annotations

import os

import pytest

from tests.flows.browser.conftest import save_screenshot, sign_in, signed_in_owner

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# An accent, a colon, a slash and an en dash: what the slug leaves out or folds.
NAME = "Caf\u00e9 Study: E2E / WMT \u2013 round 2"


def test_the_slug_follows_the_name_until_edited(page, live_server, screenshot, settings):
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from annotations.models import Campaign

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_user("dana", password="designer-pass")
    sign_in(page, live_server.url, "dana", "designer-pass")
    page.goto(live_server.url + reverse("annotations:designer-new"))
    name, slug = page.get_by_label("Name", exact=True), page.get_by_label("Slug")
    name.press_sequentially(NAME)
    assert slug.input_value() == "cafe-study-e2e-wmt-round-2"
    screenshot("designer-new-slug-suggested")

    slug.fill("")
    slug.press_sequentially("pilot-2026")
    name.fill(f"{NAME} (final)")
    assert slug.input_value() == "pilot-2026", "an edited slug is the designer's own"

    slug.fill("")  # emptied: it follows the name again
    name.fill(f"{NAME} (final)!")
    assert slug.input_value() == "cafe-study-e2e-wmt-round-2-final"

    page.get_by_role("button", name="Create campaign").click()
    page.get_by_text("Upload outputs next").wait_for()
    campaign = Campaign.objects.get(slug="cafe-study-e2e-wmt-round-2-final")
    assert campaign.name == f"{NAME} (final)!"


@pytest.mark.parametrize("javascript", [True, False])
def test_the_criterion_form_shows_the_chosen_scales_fields(
    new_page, live_server, owner, javascript
):
    from annotations.services.campaigns import campaign_create

    campaign = campaign_create(slug="crit", name="Criteria", owner=owner)
    page = signed_in_owner(new_page, live_server, javascript=javascript)
    page.goto(live_server.url + f"/campaigns/{campaign.slug}/criteria/", wait_until="load")
    assert page.get_by_label("Scale").input_value() == "magnitude"
    assert page.get_by_label("Likert levels").count() == 0
    assert page.get_by_label("Standard's value").is_visible()
    page.get_by_label("Question").fill("How good is it?")
    page.get_by_label("Scale").select_option("likert")
    if not javascript:
        page.get_by_role("button", name="Show this scale's fields").click()
    page.get_by_label("Likert levels").wait_for()
    assert page.get_by_label("Standard's value").count() == 0
    assert page.get_by_label("Question").input_value() == "How good is it?"
    assert not campaign.criteria.exists()  # redrawn, not saved
    if javascript:
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            save_screenshot(page, f"designer-criterion-likert-{width}")
