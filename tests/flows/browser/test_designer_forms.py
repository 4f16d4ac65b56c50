"""The new-campaign form in real Chromium: the slug follows the name as it is typed,
until the designer edits the slug (emptied, it follows again)."""

from __future__ import annotations

import os

import pytest

from tests.flows.browser.conftest import sign_in

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
