"""The column mappings a campaign offers (annotations/importing/mappings.py): one list,
the built-in presets then the saved ones, which the import page and the mappings API
both show."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from annotations.importing.mappings import mapping_parse, mappings_offered, rating_mapping_save
from annotations.importing.parsers.presets import PRESETS
from annotations.models import Campaign
from tests.annotations.importing.conftest import three_slot_mapping
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def _save(campaign: Campaign, name: str) -> None:
    rating_mapping_save(campaign=campaign, name=name, mapping=mapping_parse(three_slot_mapping()))


def test_the_presets_come_first_then_the_saved_ones_by_name() -> None:
    campaign = CampaignFactory()
    _save(campaign, "zeta")
    _save(campaign, "alpha")
    _save(CampaignFactory(), "elsewhere")  # another campaign's is not offered
    offered = mappings_offered(campaign=campaign)
    assert [m.name for m in offered] == [*PRESETS, "alpha", "zeta"]
    assert [(m.title, m.mapping) for m in offered[: len(PRESETS)]] == list(PRESETS.values())
    assert all(m.builtin for m in offered[: len(PRESETS)])
    saved = offered[-1]
    assert (saved.title, saved.builtin) == ("zeta", False)
    assert saved.mapping == campaign.rating_mappings.get(name="zeta").mapping


def test_the_page_and_the_api_offer_the_same_list(people_campaign) -> None:
    people, campaign = people_campaign
    _save(campaign, "mine")
    expected = [m.name for m in mappings_offered(campaign=campaign)]
    api = APIClient()
    api.force_authenticate(people["designer"])
    listed = api.get(f"/api/campaigns/{campaign.slug}/rating-mappings/")
    assert [m["name"] for m in listed.json()] == expected
    client = Client()
    client.force_login(people["designer"])
    page = client.get(f"/campaigns/{campaign.slug}/ratings/import/")
    assert [p.name for p in page.context["presets"]] == expected
    assert "mine (saved) · mine" in page.content.decode()
