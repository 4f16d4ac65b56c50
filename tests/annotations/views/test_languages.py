"""The languages and translation pages (annotations/views/languages.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Campaign
from annotations.selectors.languages import translations_needed
from annotations.selectors.sessions import campaign_in_language, criterion_in_language
from tests.factories import ItemFactory, OutputFactory, SystemFactory

pytestmark = pytest.mark.django_db


def _url(campaign: Campaign, tag: str = "") -> str:
    if tag:
        return reverse("annotations:designer-translation", args=[campaign.slug, tag])
    return reverse("annotations:designer-languages", args=[campaign.slug])


def test_a_designer_translates_and_workers_read_it(client, world):
    people, campaign, grammar, _ = world
    client.force_login(people["designer"])
    page = client.get(_url(campaign, "de"))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Perfectly grammatical" in body and 'lang="de"' in body
    data = {
        "instructions": "Lesen Sie jeden Text und bewerten Sie ihn.",
        "consent_text": "",
        f"c{grammar.pk}-question": "Wie grammatisch ist der Text?",
        **{f"c{grammar.pk}-level{i}": f"Stufe {i}" for i in range(1, 6)},
    }
    response = client.post(_url(campaign, "de"), data)
    assert response.status_code == 302
    campaign.refresh_from_db()
    grammar.refresh_from_db()
    assert campaign.translations["de"] == {
        "instructions": "Lesen Sie jeden Text und bewerten Sie ihn."
    }
    assert grammar.translations["de"]["levels"] == [f"Stufe {i}" for i in range(1, 6)]
    shown = criterion_in_language(grammar, "de")
    assert shown.question == "Wie grammatisch ist der Text?"
    assert [lv["descriptor"] for lv in shown.likert_levels] == [f"Stufe {i}" for i in range(1, 6)]
    assert campaign_in_language(campaign, "de").consent_text == "I agree to take part."
    status = {s.language: s for s in translations_needed(campaign=campaign)}["de"]
    assert [t.label for t in status.missing] == [
        "Name (the page header)",
        "Consent text",
        "quality: question",
    ]
    # Blanking a translation removes it: workers read the original again.
    data[f"c{grammar.pk}-question"] = ""
    client.post(_url(campaign, "de"), data)
    grammar.refresh_from_db()
    assert "question" not in grammar.translations["de"]
    assert criterion_in_language(grammar, "de").question == grammar.question


def test_viewers_read_but_cannot_save(client, world):
    people, campaign, grammar, _ = world
    client.force_login(people["viewer"])
    page = client.get(_url(campaign, "de")).content.decode()
    assert "Save translations" not in page and "disabled" in page
    response = client.post(_url(campaign, "de"), {f"c{grammar.pk}-question": "Hacked"})
    assert response.status_code == 403
    response = client.post(_url(campaign), {"languages": "en"})
    assert response.status_code == 403
    # The page says what the role does not allow, not that the campaign is closed to them.
    html = response.content.decode()
    assert "<p data-denied>Viewers cannot change languages.</p>" in html
    assert "has no access to it" not in html
    grammar.refresh_from_db()
    campaign.refresh_from_db()
    assert grammar.translations == {} and campaign.languages == ["en", "de", "fr"]
    client.force_login(people["outsider"])
    assert client.get(_url(campaign, "de")).status_code == 404


def test_languages_and_quotas_are_set_on_the_page(client, world):
    people, campaign, _, _ = world
    client.force_login(people["designer"])
    response = client.post(
        _url(campaign), {"languages": "en, de_AT, fr, es", "quota-fr": "40", "quota-de": ""}
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.languages == ["en", "de-AT", "fr", "es"]
    assert campaign.language_quotas == {"fr": 40}
    page = client.get(_url(campaign)).content.decode()
    assert 'data-language="es"' in page and "0 / 0" in page


def test_languages_the_outputs_have_cannot_be_dropped(client, world):
    people, campaign, _, _ = world
    system = SystemFactory(campaign=campaign)
    item = ItemFactory(campaign=campaign, language="fr")
    OutputFactory(item=item, system=system, language="fr")
    client.force_login(people["designer"])
    response = client.post(_url(campaign), {"languages": "en, de", "quota-en": "-1"})
    assert response.status_code == 200
    assert "0 or more" in response.content.decode() or "greater than" in response.content.decode()
    response = client.post(_url(campaign), {"languages": "en, de"})
    assert response.status_code == 200
    # Beside the languages field, as a sentence (was "Languages: the campaign's ...").
    assert response.context["form"].errors["languages"] == [
        "The campaign's outputs are in fr; keep every language its outputs have."
    ]
    response = client.post(_url(campaign), {"languages": "en, qq-zz-bad"})
    assert response.status_code == 200 and "not a BCP 47" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.languages == ["en", "de", "fr"]
