"""The Languages pages: languages and quotas, translations per language, and the plan
page's list of missing translations (designers enter each criterion's question,
level descriptors, instructions and consent per language)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from annotations.models import Campaign, CampaignMembership, Criterion
from annotations.selectors.languages import translations_needed
from annotations.selectors.worker import campaign_in_language, criterion_in_language
from annotations.services.criteria import criterion_from_preset
from annotations.services.languages import (
    campaign_languages_update,
    campaign_translations_update,
)
from common.errors import DomainError
from tests.annotations.designer_data import add_member, users
from tests.factories import CampaignFactory, ItemFactory, OutputFactory, SystemFactory

pytestmark = pytest.mark.django_db
Role = CampaignMembership.Role


@pytest.fixture
def world(db):
    people = users()
    campaign = CampaignFactory(
        owner=people["owner"],
        languages=["en", "de", "fr"],
        instructions="Read each text and rate it.",
        consent_text="I agree to take part.",
        description="",
    )
    add_member(campaign, people["owner"], Role.OWNER)
    add_member(campaign, people["designer"], Role.DESIGNER)
    add_member(campaign, people["viewer"], Role.VIEWER)
    grammar = criterion_from_preset(campaign=campaign, preset="grammar")
    quality = criterion_from_preset(campaign=campaign, preset="quality")
    return people, campaign, grammar, quality


def _url(campaign: Campaign, tag: str = "") -> str:
    if tag:
        return reverse("annotations:designer-translation", args=[campaign.slug, tag])
    return reverse("annotations:designer-languages", args=[campaign.slug])


def test_what_is_missing_is_listed_per_language(world):
    _, campaign, _grammar, _quality = world
    needed = {s.language: s for s in translations_needed(campaign=campaign)}
    assert set(needed) == {"de", "fr"}  # en holds the originals
    labels = [t.label for t in needed["de"].missing]
    # name, instructions, consent, 2 questions, 5 grammar descriptors; no description
    # (empty), no standard text (quality has none)
    assert len(labels) == 10
    assert "Instructions" in labels and "grammar: level 3 descriptor" in labels
    assert "Description" not in labels


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


def test_the_plan_page_lists_missing_translations(client, world):
    people, campaign, grammar, _ = world
    client.force_login(people["owner"])
    body = client.get(reverse("annotations:designer-plan", args=[campaign.slug])).content.decode()
    assert 'id="translations-missing"' in body
    assert 'data-language="de"' in body and 'data-language="fr"' in body
    assert "grammar: level 1 descriptor" in body
    # Everything translated into both: the list is gone.
    for tag in ("de", "fr"):
        campaign_translations_update(
            campaign=campaign,
            language=tag,
            texts={"name": "n", "instructions": "x", "consent_text": "y"},
            criteria={
                c.pk: {
                    "question": "q",
                    **({"levels": ["1", "2", "3", "4", "5"]} if c == grammar else {}),
                }
                for c in campaign.criteria.all()
            },
        )
    campaign.refresh_from_db()
    body = client.get(reverse("annotations:designer-plan", args=[campaign.slug])).content.decode()
    assert 'id="translations-missing"' not in body


def test_a_one_language_campaign_shows_no_translation_list(client, db):
    people = users()
    campaign = CampaignFactory(owner=people["owner"], instructions="Rate.")
    add_member(campaign, people["owner"], Role.OWNER)
    criterion_from_preset(campaign=campaign, preset="fluency")
    client.force_login(people["owner"])
    body = client.get(reverse("annotations:designer-plan", args=[campaign.slug])).content.decode()
    assert "translations-missing" not in body
    page = client.get(_url(campaign))
    assert page.status_code == 200
    assert client.get(_url(campaign, "en")).status_code == 404  # the originals


def test_viewers_read_but_cannot_save(client, world):
    people, campaign, grammar, _ = world
    client.force_login(people["viewer"])
    page = client.get(_url(campaign, "de")).content.decode()
    assert "Save translations" not in page and "disabled" in page
    response = client.post(_url(campaign, "de"), {f"c{grammar.pk}-question": "Hacked"})
    assert response.status_code == 403
    response = client.post(_url(campaign), {"languages": "en"})
    assert response.status_code == 403
    grammar.refresh_from_db()
    campaign.refresh_from_db()
    assert grammar.translations == {} and campaign.languages == ["en", "de", "fr"]
    client.force_login(people["outsider"])
    assert client.get(_url(campaign, "de")).status_code == 404


def test_impossible_translations_are_refused_with_nothing_written(world):
    _, campaign, grammar, quality = world
    before = (campaign.translations, grammar.translations)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"language": "en"}, "first language"),
        ({"language": "es"}, "not one of the campaign's languages"),
        ({"language": "xx"}, "not a BCP 47"),
        ({"criteria": {grammar.pk: {"levels": ["a", "b"]}}}, "2 level descriptors"),
        ({"criteria": {quality.pk: {"levels": ["a"]}}}, "only a Likert scale"),
        ({"criteria": {grammar.pk: {"levels": {9: "a"}}}}, "levels 1 to 5"),
        ({"criteria": {999_999: {"question": "q"}}}, "not a criterion of this campaign"),
        ({"texts": {"title": "x"}}, "Unknown campaign texts"),
        ({"texts": {"instructions": "a\x00b"}}, "NUL"),
    ]
    other = CampaignFactory(languages=["en", "de"])
    stranger = criterion_from_preset(campaign=other, preset="grammar")
    cases.append(({"criteria": {stranger.pk: {"question": "q"}}}, "not a criterion"))
    for change, message in cases:
        kwargs = {
            "campaign": campaign,
            "language": "de",
            "texts": {"instructions": "Lesen."},
            "criteria": {},
            **change,
        }
        with pytest.raises(DomainError, match=message):
            campaign_translations_update(**kwargs)
        campaign.refresh_from_db()
        grammar.refresh_from_db()
        assert (campaign.translations, grammar.translations) == before, message


def test_a_closed_campaign_keeps_its_texts(world):
    _, campaign, _grammar, _ = world
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.CLOSED)
    with pytest.raises(DomainError, match="closed"):
        campaign_translations_update(
            campaign=campaign, language="de", texts={"instructions": "x"}, criteria={}
        )
    with pytest.raises(DomainError, match="closed"):
        campaign_languages_update(campaign=campaign, languages=["en"], quotas={})


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
    assert "outputs are in fr" in response.content.decode()
    response = client.post(_url(campaign), {"languages": "en, qq-zz-bad"})
    assert response.status_code == 200 and "not a BCP 47" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.languages == ["en", "de", "fr"]


def test_quota_for_a_language_the_campaign_lacks_is_refused(world):
    _, campaign, _, _ = world
    with pytest.raises(DomainError, match="not one of the campaign's languages"):
        campaign_languages_update(campaign=campaign, languages=["en", "de"], quotas={"fr": 3})
    with pytest.raises(DomainError, match="whole number"):
        campaign_languages_update(campaign=campaign, languages=["en", "de"], quotas={"de": 1.5})


def test_a_level_label_given_in_the_admin_is_kept(world):
    _, campaign, grammar, _ = world
    Criterion.objects.filter(pk=grammar.pk).update(
        translations={"de": {"levels": [{"label": "eins", "descriptor": "a"}, "", "", "", ""]}}
    )
    grammar.refresh_from_db()
    campaign_translations_update(
        campaign=campaign, language="de", texts={}, criteria={grammar.pk: {"levels": {1: "neu"}}}
    )
    grammar.refresh_from_db()
    assert grammar.translations["de"]["levels"][0] == {"label": "eins", "descriptor": "neu"}


def test_the_first_language_must_have_outputs(world):
    _, campaign, _, _ = world
    system = SystemFactory(campaign=campaign)
    item = ItemFactory(campaign=campaign, language="de")
    OutputFactory(item=item, system=system, language="de")
    with pytest.raises(DomainError, match="put one of de first"):
        campaign_languages_update(campaign=campaign, languages=["fr", "de"], quotas={})
    campaign.refresh_from_db()
    assert campaign.languages == ["en", "de", "fr"]
    campaign_languages_update(campaign=campaign, languages=["de", "en", "fr"], quotas={})
    campaign.refresh_from_db()
    assert campaign.languages == ["de", "en", "fr"]


def test_the_first_language_stays_once_texts_are_translated_or_the_campaign_runs(world):
    _, campaign, _, _ = world
    campaign_translations_update(
        campaign=campaign, language="de", texts={"instructions": "Lesen."}, criteria={}
    )
    with pytest.raises(DomainError, match=r"'en' must stay first.*translated from it"):
        campaign_languages_update(campaign=campaign, languages=["de", "en", "fr"], quotas={})
    campaign_languages_update(campaign=campaign, languages=["en", "fr", "de"], quotas={})
    campaign.refresh_from_db()
    assert campaign.languages == ["en", "fr", "de"]  # the others may move
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE, translations={})
    campaign.refresh_from_db()
    with pytest.raises(DomainError, match="no longer a draft"):
        campaign_languages_update(campaign=campaign, languages=["fr", "en", "de"], quotas={})


def test_line_endings_from_a_browser_are_stored_as_newlines(world):
    _, campaign, grammar, _ = world
    campaign_translations_update(
        campaign=campaign,
        language="de",
        texts={"instructions": "Zeile eins\r\nZeile zwei\r"},
        criteria={grammar.pk: {"question": "Wie?\r\nGenau."}},
    )
    campaign.refresh_from_db()
    grammar.refresh_from_db()
    assert campaign.translations["de"]["instructions"] == "Zeile eins\nZeile zwei"
    assert grammar.translations["de"]["question"] == "Wie?\nGenau."
