"""The multilingual demo campaign `make run` seeds, in real Chromium: the
organizer's MTG-style table and the Languages page, and a Spanish worker's task with the
Spanish descriptors (screenshots in artifacts/)."""

from __future__ import annotations

import pytest

from annotations.services.demo_multilingual import (
    DEMO_MTG_CRITERION_TRANSLATIONS,
    demo_multilingual_seed,
)
from tests.flows.browser.conftest import page_of_new_owner, save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_multilingual_demo_from_organizer_and_worker(new_page, live_server):
    seeded = demo_multilingual_seed()
    campaign = seeded.campaign
    page = page_of_new_owner(new_page, live_server, campaign, username="mtg-owner")
    page.goto(live_server.url + f"/rankings/campaign/{campaign.slug}/means/")
    heads = page.locator(".means-table").first.locator("thead th").all_inner_texts()
    assert heads == ["System", "en", "de", "fr", "es", "all languages"]
    assert page.locator(".means-block").count() == 3  # grammar, fluency, relevance
    save_screenshot(page, "demo-mtg-means-1280")
    page.goto(live_server.url + f"/campaigns/{campaign.slug}/languages/")
    table = page.locator("#languages-table").inner_text()
    for tag in ("de", "fr", "es"):
        assert f"{tag}" in table
    assert "missing" not in table  # the demo's texts are all translated
    save_screenshot(page, "demo-mtg-languages-1280")

    worker = new_page(width=390)
    worker.set_default_timeout(60_000)
    worker.goto(
        f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=es-1&STUDY_ID=s&SESSION_ID=x&lang=es"
    )
    assert worker.locator("html").get_attribute("lang") == "es"
    worker.locator("input[type=checkbox]").first.check()
    worker.locator("button[type=submit]").first.click()
    worker.locator(".w-output").first.wait_for()
    # The campaign's name too is the Spanish one (header and tab).
    assert "descripciones multilingües" in worker.locator(".w-brand").inner_text()
    assert "descripciones multilingües" in worker.title()
    body = worker.locator("main").inner_text()
    spanish = {name: texts["es"] for name, texts in DEMO_MTG_CRITERION_TRANSLATIONS.items()}
    shown = [name for name, texts in spanish.items() if texts["question"] in body]
    assert len(shown) == 1  # whichever criterion the hand-out chose, in Spanish
    assert all(level in body for level in spanish[shown[0]]["levels"])
    save_screenshot(worker, "demo-mtg-worker-es-390")
