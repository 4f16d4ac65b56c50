"""The plan page lists the translations a multilingual campaign lacks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import Campaign, CampaignMembership
from annotations.services.criteria import criterion_from_preset
from annotations.services.languages import (
    campaign_translations_update,
)
from tests.annotations.designer_data import add_member, users
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


Role = CampaignMembership.Role


def _url(campaign: Campaign, tag: str = "") -> str:
    if tag:
        return reverse("annotations:designer-translation", args=[campaign.slug, tag])
    return reverse("annotations:designer-languages", args=[campaign.slug])


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
