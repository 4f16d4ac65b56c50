"""A designer translates a Likert criterion into German on the Languages page, in real
Chromium; the plan page stops listing what was missing, and a German worker reads the
translation. Screenshots at desktop and phone width in artifacts/."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from annotations.models import Campaign, CampaignMembership, Task
from annotations.services.criteria import criterion_from_preset
from tests.factories import CampaignFactory, task_with_outputs
from tests.flows.browser.conftest import save_screenshot, settled_width, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GERMAN = [
    "Unverständlich",
    "Viele schwere Fehler",
    "Einige Fehler, Sinn klar",
    "Nur kleine Fehler",
    "Fehlerfrei",
]


def test_a_designer_translates_a_criterion_and_a_german_worker_reads_it(new_page, live_server):
    owner = User.objects.create_user("tr-owner", password="pw-tr-owner")
    campaign = CampaignFactory(
        owner=owner,
        languages=["en", "de"],
        instructions="Rate each text.",
        consent_text="I agree.",
        tasks_per_worker=1,
    )
    CampaignMembership.objects.create(
        campaign=campaign, user=owner, role=CampaignMembership.Role.OWNER
    )
    grammar = criterion_from_preset(campaign=campaign, preset="grammar")

    page = new_page(width=1280)
    page.set_default_timeout(60_000)
    sign_in(page, live_server.url, "tr-owner", "pw-tr-owner")
    page.goto(live_server.url + f"/campaigns/{campaign.slug}/plan/")
    missing = page.locator("#translations-missing")
    assert "9 of 9 missing" in missing.inner_text()
    missing.get_by_role("link", name="de").click()
    page.get_by_label("grammar: question").fill("Wie grammatisch ist der Text?")
    for n, text in enumerate(GERMAN, start=1):
        page.get_by_label(f"grammar: level {n} descriptor").fill(text)
    page.get_by_label("Instructions").fill("Bewerten Sie jeden Text.")
    save_screenshot(page, "designer-translation-1280")
    page.get_by_role("button", name="Save translations").click()
    page.get_by_text("Translations into German (Deutsch) saved.").wait_for()
    assert page.locator(".translation-missing").count() == 2  # the name, the consent text
    page.set_viewport_size({"width": 390, "height": 844})
    assert settled_width(page, 390) <= 390
    save_screenshot(page, "designer-translation-390")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + f"/campaigns/{campaign.slug}/languages/")
    assert "7 of 9 translated" in page.locator("#languages-table").inner_text()
    save_screenshot(page, "designer-languages-1280")
    page.goto(live_server.url + f"/campaigns/{campaign.slug}/plan/")
    assert (
        "2 of 9 missing (Name (the page header); Consent text)"
        in page.locator("#translations-missing").inner_text()
    )

    # A German worker reads the designer's German.
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE)
    task = task_with_outputs(
        campaign=campaign, criterion=grammar, texts=("Das ist gut.", "Das gut ist.")
    )
    Task.objects.filter(pk=task.pk).update(language="de")
    worker = new_page(width=390)
    worker.set_default_timeout(60_000)
    worker.goto(
        f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=tr1&STUDY_ID=s&SESSION_ID=x&lang=de"
    )
    assert worker.get_by_text("Bewerten Sie jeden Text.").is_visible()
    worker.get_by_label("Ich habe die Informationen oben gelesen").check()
    worker.get_by_role("button", name="Beginnen").click()
    worker.get_by_role("heading", name="Wie grammatisch ist der Text?").wait_for()
    assert worker.locator(".w-output").first.get_by_text("Fehlerfrei", exact=True).is_visible()
    save_screenshot(worker, "worker-translated-grammar-390")
