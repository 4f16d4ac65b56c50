"""Power analysis in real Chromium: the plan page loads the panel (htmx) and it fits a
phone (screenshots in artifacts/)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.flows.browser.conftest import save_screenshot, settled_width
from tests.ranking.planted import planted_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_plan_page_says_how_many_judgements(new_page, live_server, width):
    owner = User.objects.create_user(f"pw-owner{width}", password="pw-secret-123")
    campaign, _ = planted_campaign(strengths=[40, 2, 0, -1], n_judgements=60, k=4, noise=20)
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    page = new_page(width=width)
    page.set_default_timeout(60_000)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(f"pw-owner{width}")
    page.get_by_label("Password").fill("pw-secret-123")
    page.get_by_role("button", name="Sign in").click()
    page.goto(live_server.url + f"/campaigns/{campaign.slug}/plan/")
    report = page.locator("#power-report")
    report.wait_for()
    assert "194 comparisons" in report.inner_text()
    # The panel's page is loaded by htmx: the tab keeps the plan page's title.
    assert page.title().startswith("Plan ·")
    assert report.locator("[data-power-pairs] tbody tr").count() >= 1
    assert settled_width(page, width) <= width
    save_screenshot(page, f"power-plan-{width}")
