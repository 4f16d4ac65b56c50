"""Adaptive design in real Chromium: a designer turns it on, adds batches, and reads why
each batch's systems were chosen and whether the clusters are stable (screenshots)."""

from __future__ import annotations

import re

import pytest

from annotations.models import Campaign
from ranking.models import AdaptiveBatch
from tests.flows.browser.conftest import page_of_new_owner, save_screenshot, settled_width
from tests.ranking.adaptive_data import adaptive_campaign, judge_all

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: a batch refits the ranking before it chooses its tasks: seconds on a loaded CI machine,
#: more than the pages' default 10 s wait at worst
BATCH_TIMEOUT_MS = 30_000


def test_a_designer_adds_batches_and_reads_the_stop_rule(new_page, live_server):
    campaign = adaptive_campaign(items=40, batch=10)
    Campaign.objects.filter(pk=campaign.pk).update(adaptive_design=False)
    judge_all(campaign)
    page = page_of_new_owner(new_page, live_server, campaign, username="ad-owner")
    page.goto(live_server.url + f"/campaigns/{campaign.slug}/settings/")
    page.get_by_label("Adaptive design").check()
    page.get_by_label("Adaptive batch tasks").fill("10")
    page.get_by_role("button", name="Save settings").click()
    page.get_by_text("Settings saved.").wait_for()
    page.goto(live_server.url + f"/rankings/campaign/{campaign.slug}/")
    page.get_by_role("link", name="Adaptive design").click()
    # The link's page first: the loop's expect_navigation must catch the form's, not this.
    page.wait_for_url(f"**/rankings/campaign/{campaign.slug}/adaptive/")
    for number in (1, 2, 3):
        # Each click waits for the page it leads to: a click on the page before sends the
        # batch number that page showed, and is refused as a form sent twice.
        with page.expect_navigation(timeout=BATCH_TIMEOUT_MS):
            page.get_by_role("button", name="Add a batch of quality tasks now").click()
        page.get_by_text(f"Batch {number} of quality: 10 tasks added.").wait_for(
            timeout=BATCH_TIMEOUT_MS
        )
    assert AdaptiveBatch.objects.count() == 3
    rows = page.locator("table tbody tr")
    assert rows.count() == 3 and "#3" in rows.first.inner_text()
    stable = AdaptiveBatch.objects.get(number=3).stable
    assert page.locator("[data-stable]").count() == (1 if stable else 0)
    save_screenshot(page, "adaptive-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    assert settled_width(page, 390) <= 390
    save_screenshot(page, "adaptive-390")


def test_a_double_click_adds_one_batch(new_page, live_server):
    """A designer double-clicks the button (the browser sends the form twice): one batch."""
    campaign = adaptive_campaign(items=40, batch=10)
    judge_all(campaign)
    page = page_of_new_owner(new_page, live_server, campaign, username="ad-owner2")
    page.goto(live_server.url + f"/rankings/campaign/{campaign.slug}/adaptive/")
    button = page.get_by_role("button", name="Add a batch of quality tasks now")
    button.dblclick()
    # Which message the page shows depends on whether the browser let the first send's
    # page load: one of the two, and one batch either way.
    page.get_by_text(
        re.compile("Batch 1 of quality: 10 tasks added|no batch was added", re.IGNORECASE)
    ).first.wait_for(timeout=BATCH_TIMEOUT_MS)
    page.goto(live_server.url + f"/rankings/campaign/{campaign.slug}/adaptive/")
    assert AdaptiveBatch.objects.count() == 1
    assert page.locator("table tbody tr").count() == 1
