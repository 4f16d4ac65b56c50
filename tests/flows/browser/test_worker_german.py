"""A German worker's whole journey in real Chromium: the link asks for
German, consent, instructions, a Likert task with German level descriptors, an error,
the submit, the completion code; at desktop and phone width (screenshots in artifacts/)."""

from __future__ import annotations

import pytest

from annotations.models import Campaign, Judgement, Task, Worker
from tests.factories import CampaignFactory, CriterionFactory, task_with_outputs
from tests.flows.browser.conftest import save_screenshot, settled_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LEVELS = [{"value": v, "label": str(v), "descriptor": f"level {v}"} for v in (1, 2, 3, 4, 5)]
GERMAN = ["sehr holprig", "holprig", "teils flüssig", "flüssig", "sehr flüssig"]


@pytest.mark.parametrize("width", [1280, 390])
def test_a_german_worker_from_link_to_completion_code(new_page, live_server, width):
    campaign = CampaignFactory(
        name="MTG-Studie",
        status=Campaign.Status.LIVE,
        languages=["en", "de"],
        tasks_per_worker=1,
        instructions="Read the stories.",
        consent_text="I agree.",
        translations={
            "de": {
                # A long German compound: it must wrap on a phone, not widen the page.
                "name": "Demo: mehrsprachige Restaurantbeschreibungen (MTG-Stil)",
                "instructions": "Lesen Sie die Geschichten.",
                "consent_text": "Ich stimme zu.",
            }
        },
    )
    criterion = CriterionFactory(
        campaign=campaign,
        name="fluency",
        question="How fluent is the story?",
        scale="likert",
        scale_settings={"levels": LEVELS},
        translations={"de": {"question": "Wie flüssig ist die Geschichte?", "levels": GERMAN}},
    )
    task = task_with_outputs(
        campaign=campaign,
        criterion=criterion,
        texts=("Es war einmal ein Fuchs.", "Der Fuchs lief in den Wald.", "Fuchs Wald lief."),
    )
    Task.objects.filter(pk=task.pk).update(language="de")

    page = new_page(width=width)
    page.set_default_timeout(60_000)
    page.goto(
        f"{live_server.url}/w/{campaign.slug}/?PROLIFIC_PID=de-{width}&STUDY_ID=s&SESSION_ID=x&lang=de"
    )
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.get_by_text("Lesen Sie die Geschichten.").is_visible()
    save_screenshot(page, f"german-consent-{width}")
    assert settled_width(page, width) <= width  # no sideways scrolling
    page.get_by_role("button", name="Beginnen").click()  # without ticking: an error
    assert page.get_by_text("Bitte setzen Sie das Häkchen").is_visible()
    page.get_by_label("Ich habe die Informationen oben gelesen").check()
    page.get_by_role("button", name="Beginnen").click()
    page.get_by_text("Aufgabe 1 von 1").wait_for()
    assert Worker.objects.get(external_id=f"de-{width}").language == "de"
    assert page.get_by_role("heading", name="Wie flüssig ist die Geschichte?").is_visible()
    page.get_by_role("button", name="Abschicken und weiter").click()
    page.locator(".w-error-summary").wait_for()
    assert "Bitte prüfen Sie Ihre Antworten" in page.locator(".w-error-summary").inner_text()
    assert "Wählen Sie für diesen Text eine der Stufen" in page.content()
    save_screenshot(page, f"german-task-error-{width}")
    outputs = page.locator(".w-output")
    for n in range(outputs.count()):
        outputs.nth(n).get_by_text(GERMAN[4 - n], exact=True).click()
    page.get_by_role("button", name="Abschicken und weiter").click()
    page.get_by_text("Vielen Dank, Sie sind fertig").wait_for()
    assert Judgement.objects.filter(worker__external_id=f"de-{width}").count() == 1
    assert settled_width(page, width) <= width
    save_screenshot(page, f"german-done-{width}")
