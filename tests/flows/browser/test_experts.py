"""Crowd versus experts in real Chromium: the monitor loads the report into its panel,
and at phone width the page fits and excludes the disagreeing worker."""

from __future__ import annotations

import pytest

from tests.flows.browser.conftest import save_screenshot, settled_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1100, 390])
def test_monitor_panel_and_page(new_page, live_server, settings, width):
    from django.contrib.auth import get_user_model

    from annotations.models import CampaignMembership, Worker
    from tests.annotations.experts_data import experts_campaign

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = get_user_model().objects.create_user("ed", password="designer-pass-1")
    campaign, _ = experts_campaign()
    CampaignMembership.objects.create(
        campaign=campaign, user=user, role=CampaignMembership.Role.OWNER
    )
    page = new_page(width=width, height=800)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("ed")
    page.get_by_label("Password").fill("designer-pass-1")
    page.get_by_role("button", name="Sign in").click()

    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/monitor/")
    panel = page.locator("#experts-report")
    panel.get_by_text("2 experts").wait_for()  # loaded by htmx into the monitor
    assert "Spearman ρ 1.000" in panel.inner_text()  # noqa: RUF001
    panel.scroll_into_view_if_needed()
    save_screenshot(page, f"experts-monitor-{width}")

    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/experts/")
    assert settled_width(page, width) <= width
    page.get_by_label("Exclude when α with the experts' consensus is below").fill("0.5")  # noqa: RUF001
    page.get_by_role("button", name="Exclude these workers").click()
    page.get_by_text("1 worker excluded: careless.").wait_for()
    assert settled_width(page, width) <= width
    save_screenshot(page, f"experts-page-{width}")
    assert Worker.objects.get(external_id="careless").excluded
