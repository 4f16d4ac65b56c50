"""The organizer frees a participant id someone else took first, on the monitor, in
Chromium: the row's reason box and "Exclude and free the id" button, swapped in place."""

from __future__ import annotations

import pytest

from tests.flows.browser.conftest import save_screenshot, signed_in_owner

pytestmark = pytest.mark.django_db(transaction=True)


def test_exclude_and_free_the_id_on_the_monitor(new_page, live_server, owner):
    from annotations.models import CampaignMembership, Worker
    from tests.annotations.designer_data import add_member, judged_campaign

    campaign = judged_campaign(owner=owner, n_workers=3)
    add_member(campaign, owner, CampaignMembership.Role.OWNER)
    taken = campaign.workers.get(external_id="PID0001")
    page = signed_in_owner(new_page, live_server)
    page.goto(live_server.url + f"/campaigns/{campaign.slug}/monitor/")
    row = page.locator(f"#worker-{taken.pk}")
    free = row.get_by_role("button", name="Exclude and free the id of worker PID0001")
    free.click()  # no reason: the browser asks for one, nothing is sent
    taken.refresh_from_db()
    assert not taken.excluded
    row.get_by_label("Why exclude worker PID0001?").fill("Its owner wrote: not me")
    free.click()
    page.locator(f"#worker-{taken.pk} [data-id-released]").wait_for()
    text = page.locator(f"#worker-{taken.pk}").inner_text()
    assert f"PID0001~released-{taken.pk}" in text and "Its owner wrote: not me" in text
    assert page.locator(f"#worker-{taken.pk} button[value=release]").count() == 0
    save_screenshot(page, "monitor-id-freed")
    taken.refresh_from_db()
    assert taken.excluded and taken.stopped
    assert not Worker.objects.filter(campaign=campaign, external_id="PID0001").exists()


def test_the_workers_table_fits_a_laptop_screen(new_page, live_server, owner):
    """A reviewer's monitor at 1280 px: the workers table was 1,635 px wide, the Expert
    button and the reason box cut off, the status one word a line. The actions now wrap
    in a column of their own, and a plain link's long id breaks."""
    from annotations.models import CampaignMembership, Worker
    from tests.annotations.designer_data import add_member, judged_campaign

    campaign = judged_campaign(owner=owner, n_workers=3)
    add_member(campaign, owner, CampaignMembership.Role.OWNER)
    Worker.objects.filter(campaign=campaign, external_id="PID0002").update(
        external_id="link-" + "8f3a9c2e" * 6, platform="link"
    )
    page = signed_in_owner(new_page, live_server, width=1280)
    page.goto(live_server.url + f"/campaigns/{campaign.slug}/monitor/")
    table = page.locator("#workers-table")
    table.wait_for()
    page.wait_for_load_state("networkidle")  # the panels htmx loads above it
    table.screenshot(path=str(save_screenshot(page, "monitor-workers-1280")))
    widths = table.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1] + 1, widths  # no sideways scrolling at 1280 px
