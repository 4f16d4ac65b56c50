"""The designer's next step in Chromium: the next needed step is the one primary
button; an empty draft's Build and Launch are disabled with the reason; a live campaign
shows no upload form but says why; the monitor's worker table counts pages and labels
what they were; the plan's costs carry a currency."""

from __future__ import annotations

import os

import pytest

from tests.flows.browser.conftest import save_screenshot, signed_in_owner

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _background(locator) -> str:
    return locator.evaluate("e => getComputedStyle(e).backgroundColor")


def test_next_step_primary_upload_closed_pages_labelled(new_page, live_server):
    from annotations.models import Campaign
    from annotations.services.campaigns import campaign_create
    from tests.annotations.designer_data import judged_campaign, users

    people = users()
    owner = people["owner"]
    owner.set_password("owner-pass")
    owner.save()
    empty = campaign_create(slug="empty", name="Empty", owner=owner)
    judged = judged_campaign(owner=owner, n_items=4, n_workers=2)
    Campaign.objects.filter(pk=judged.pk).update(status="live")
    page = new_page(width=1100)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill("owner-pass")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state("load")

    page.goto(live_server.url + f"/campaigns/{empty.slug}/")
    upload = page.get_by_role("button", name="Upload", exact=True)
    launch = page.get_by_role("button", name="Launch", exact=True)
    build = page.get_by_role("button", name="Build tasks", exact=True)
    save_screenshot(page, "designer-next-step-empty-draft")
    # One primary button: the step that is due (upload); launch and build look secondary.
    assert _background(upload) != _background(launch)
    assert _background(launch) == _background(build)

    page.goto(live_server.url + f"/campaigns/{judged.slug}/")
    save_screenshot(page, "designer-live-upload-closed")
    assert page.get_by_role("button", name="Upload", exact=True).count() == 0
    assert page.get_by_text("uploaded only while the campaign is a draft").is_visible()

    page.goto(live_server.url + f"/campaigns/{judged.slug}/monitor/")
    workers = page.locator("#workers")
    workers.scroll_into_view_if_needed()
    save_screenshot(page, "designer-monitor-pages")
    assert workers.get_by_role("columnheader", name="Pages").is_visible()
    assert workers.get_by_text("(4 counted)").first.is_visible()

    page.goto(live_server.url + f"/campaigns/{judged.slug}/plan/")
    assert page.locator("[data-cost]").inner_text().startswith("£")
    assert page.get_by_label("Pay per hour (GBP; left empty").is_visible()


def test_empty_draft_buttons_disabled_and_amounts_formatted(new_page, live_server, owner):
    from annotations.models import Campaign
    from annotations.services.campaigns import campaign_create
    from tests.annotations.designer_data import judged_campaign

    empty = campaign_create(slug="empty", name="Empty", owner=owner)
    judged = judged_campaign(owner=owner, n_items=4, n_workers=2)
    Campaign.objects.filter(pk=judged.pk).update(status="draft")
    for width in (1280, 390):
        page = signed_in_owner(new_page, live_server, width=width)
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
