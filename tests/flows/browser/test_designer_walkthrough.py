"""A new designer's walk-through in Chromium: the criterion form shows the chosen
scale's fields only (redrawn by htmx, or by a button without JavaScript); an empty
draft's Build and Launch are disabled with the reason; amounts carry their currency once.
Screenshots at 1280 and 390 px."""

from __future__ import annotations

import os

import pytest

from tests.flows.browser.conftest import save_screenshot

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _signed_in(new_page, live_server, *, javascript: bool = True, width: int = 1280):
    page = new_page(java_script_enabled=javascript, width=width)
    page.set_default_timeout(30_000)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill("owner-pass")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state("load")
    return page


@pytest.fixture
def owner():
    from tests.annotations.designer_data import users

    person = users()["owner"]
    person.set_password("owner-pass")
    person.save()
    return person


@pytest.mark.parametrize("javascript", [True, False])
def test_the_criterion_form_shows_the_chosen_scales_fields(
    new_page, live_server, owner, javascript
):
    from annotations.services.campaigns import campaign_create

    campaign = campaign_create(slug="crit", name="Criteria", owner=owner)
    page = _signed_in(new_page, live_server, javascript=javascript)
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


def test_empty_draft_buttons_disabled_and_amounts_formatted(new_page, live_server, owner):
    from annotations.models import Campaign
    from annotations.services.campaigns import campaign_create
    from tests.annotations.designer_data import judged_campaign

    empty = campaign_create(slug="empty", name="Empty", owner=owner)
    judged = judged_campaign(owner=owner, n_items=4, n_workers=2)
    Campaign.objects.filter(pk=judged.pk).update(status="draft")
    for width in (1280, 390):
        page = _signed_in(new_page, live_server, width=width)
        page.goto(live_server.url + f"/campaigns/{empty.slug}/")
        for name in ("Build tasks", "Launch"):
            assert page.get_by_role("button", name=name, exact=True).is_disabled()
        assert page.get_by_text("upload system outputs and add a criterion").is_visible()
        save_screenshot(page, f"designer-empty-draft-{width}")
        page.goto(live_server.url + f"/campaigns/{judged.slug}/plan/")
        cost = page.locator("[data-cost]").inner_text()
        assert cost.startswith("£") and "GBP" not in cost
        save_screenshot(page, f"designer-plan-{width}")
        page.goto(live_server.url + f"/campaigns/{judged.slug}/settings/")
        assert page.get_by_role("heading", name="Settings", exact=True).is_visible()
        save_screenshot(page, f"designer-settings-{width}")
        page.goto(live_server.url + f"/campaigns/{judged.slug}/payments/")
        save_screenshot(page, f"designer-payments-{width}")
        page.goto(live_server.url + "/api/docs/")
        page.get_by_role("link", name="Back to humaneval").wait_for()
        save_screenshot(page, f"api-docs-{width}")
