"""The MTG-style table in real Chromium: an organizer reads mean ratings per language
beside the German ranking, at desktop and phone width (screenshots in artifacts/)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from annotations.models import CampaignMembership
from ranking.services import compute
from ranking.services import runs as services
from tests.flows.browser.conftest import save_screenshot, settled_width, sign_in
from tests.ranking.means_data import rated_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organizer_reads_means_per_language_beside_the_ranking(new_page, live_server):
    campaign, grammar, _ = rated_campaign(n=20)
    owner = User.objects.create_user("mn-owner", password="pw-mn-owner")
    CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    run = services.ranking_run_create(
        campaign=campaign, criterion=grammar, queue=False, where={"language": "de"}, runs=20
    )
    compute.ranking_run_compute(run=run, fan_out=False)

    page = new_page(width=1280)
    page.set_default_timeout(60_000)
    sign_in(page, live_server.url, "mn-owner", "pw-mn-owner")
    page.goto(live_server.url + f"/rankings/campaign/{campaign.slug}/")
    page.get_by_role("link", name="Mean ratings").click()
    table = page.locator(".means-table")
    assert table.locator("thead th").all_inner_texts() == ["System", "de", "fr", "all languages"]
    first = table.locator("tbody tr").first
    assert "rank 1" in first.locator("td").first.inner_text()  # the German run's rank
    assert "n=20" in first.locator("td").nth(1).inner_text()
    save_screenshot(page, "means-table-1280")
    page.get_by_label("Confidence").fill("0.99")
    page.get_by_role("button", name="Show").click()
    page.wait_for_load_state("load")
    assert "99%" in page.locator("main").inner_text()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download CSV").click()
    assert download.value.suggested_filename == f"{campaign.slug}-means.csv"
    page.set_viewport_size({"width": 390, "height": 844})
    assert settled_width(page, 390) <= 390
    save_screenshot(page, "means-table-390")
