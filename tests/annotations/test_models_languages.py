"""``Campaign``'s languages as every reader takes them: English when none is stored."""

from __future__ import annotations

from annotations.models import Campaign


def test_a_campaign_without_languages_is_english():
    stored: list[str] | None
    for stored in ([], None):
        campaign = Campaign(languages=stored)
        assert campaign.languages_or_default == ["en"]
        assert campaign.default_language == "en"
        assert not campaign.is_multilingual


def test_the_first_language_is_the_default_and_the_list_is_a_copy():
    campaign = Campaign(languages=["de", "en"])
    assert campaign.default_language == "de"
    assert campaign.is_multilingual
    campaign.languages_or_default.append("fr")
    assert campaign.languages == ["de", "en"]
    assert not Campaign(languages=["fr"]).is_multilingual


def test_a_campaign_has_ended_when_closed_or_archived():
    ended = {status for status in Campaign.Status if Campaign(status=status).has_ended}
    assert ended == {Campaign.Status.CLOSED, Campaign.Status.ARCHIVED}
