"""Translations and language quotas (annotations/services/languages.py): all or nothing, with the reason."""

from __future__ import annotations

import re
from typing import Any

import pytest

from annotations.models import Campaign, Criterion
from annotations.services.criteria import criterion_from_preset
from annotations.services.languages import (
    campaign_languages_update,
    campaign_translations_update,
)
from common.errors import DomainError
from tests.factories import CampaignFactory, ItemFactory, OutputFactory, SystemFactory

pytestmark = pytest.mark.django_db


def test_impossible_translations_are_refused_with_nothing_written(world):
    _, campaign, grammar, quality = world
    before = (campaign.translations, grammar.translations)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"language": "en"}, "first language"),
        ({"language": "es"}, "not one of the campaign's languages"),
        ({"language": "xx"}, "not a BCP 47"),
        ({"criteria": {grammar.pk: {"levels": ["a", "b"]}}}, "2 level descriptors"),
        ({"criteria": {quality.pk: {"levels": ["a"]}}}, "not on a Likert scale"),
        ({"criteria": {grammar.pk: {"levels": {9: "a"}}}}, "levels 1 to 5"),
        ({"criteria": {999_999: {"question": "q"}}}, "is not one of this campaign's"),
        ({"texts": {"title": "x"}}, "Unknown campaign texts"),
        ({"texts": {"instructions": "a\x00b"}}, "NUL"),
    ]
    other = CampaignFactory(languages=["en", "de"])
    stranger = criterion_from_preset(campaign=other, preset="grammar")
    cases.append(({"criteria": {stranger.pk: {"question": "q"}}}, "is not one of this campaign"))
    for change, message in cases:
        kwargs = {
            "campaign": campaign,
            "language": "de",
            "texts": {"instructions": "Lesen."},
            "criteria": {},
            **change,
        }
        with pytest.raises(DomainError, match=message) as refused:
            campaign_translations_update(**kwargs)
        # A sentence naming its field for the API, not a "Field: ..." prefix.
        assert refused.value.field and not re.match(r"^\w+: ", str(refused.value)), message
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
