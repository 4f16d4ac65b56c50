"""Rankings by slice in real Chromium: a designer ranks every challenge set and sees
them beside all items, at desktop and phone width (screenshots in artifacts/)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from annotations.models import Item
from ranking.models import RankingRun
from tests.flows.browser.conftest import save_screenshot, settled_width
from tests.ranking.planted import planted_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_designer_ranks_every_slice_and_reads_them_side_by_side(new_page, live_server):
    owner = User.objects.create_user("sl-owner", password="pw-sl-owner")
    campaign, _ = planted_campaign(
        strengths=[60, 30, 0, -30], n_judgements=60, k=4, seed=2, noise=10
    )
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    for number, item in enumerate(Item.objects.filter(campaign=campaign).order_by("pk")):
        item.attributes = {"challenge_set": ["scramble", "typos", "original"][number % 3]}
        item.save(update_fields=["attributes"])

    page = new_page(width=1280)
    page.set_default_timeout(60_000)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("sl-owner")
    page.get_by_label("Password").fill("pw-sl-owner")
    page.get_by_role("button", name="Sign in").click()
    page.goto(live_server.url + f"/rankings/campaign/{campaign.slug}/")
    page.get_by_role("link", name="Rankings by slice").click()
    page.get_by_role("button", name="Show").click()
    page.get_by_role("button", name="Rank the missing slices").click()
    page.wait_for_load_state("load")
    # The runs compute in a background thread (no broker): reload until all four show.
    for _ in range(60):
        if RankingRun.objects.filter(status=RankingRun.Status.DONE).count() == 4:
            break
        page.wait_for_timeout(500)
    page.reload()
    table = page.locator("table")
    for heading in ("all items", "challenge_set=original", "challenge_set=scramble"):
        assert table.get_by_role("link", name=heading).count() == 1
    assert table.locator("tbody tr").count() == 4
    assert "s0" in table.locator("tbody tr").first.inner_text()
    save_screenshot(page, "ranking-slices-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    assert settled_width(page, 390) <= 390
    save_screenshot(page, "ranking-slices-390")
