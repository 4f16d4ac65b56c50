"""``outputs_store`` (the demo, the E2E folder and mapped rating imports use it) keeps
each row's language: it used to store every output as English."""

from __future__ import annotations

import pytest

from annotations.core.outputs import OutputRow
from annotations.models import Item, Output
from annotations.services.outputs import outputs_store
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_rows_keep_their_language_and_the_campaign_gains_it() -> None:
    campaign = CampaignFactory()
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(item_id="m1", input="x", system="a", text="Gut.", language="de"),
            OutputRow(item_id="m1", input="x", system="b", text="Bon.", language="fr"),
            OutputRow(item_id="m2", input="y", system="a", text="Good."),
        ],
    )
    assert dict(Output.objects.values_list("text", "language")) == {
        "Gut.": "de",
        "Bon.": "fr",
        "Good.": "en",  # no language: the campaign's first
    }
    assert dict(Item.objects.values_list("external_id", "language")) == {"m1": "de", "m2": "en"}
    campaign.refresh_from_db()
    assert campaign.languages == ["en", "de", "fr"]


def test_a_german_campaign_stores_rows_without_a_language_as_german() -> None:
    campaign = CampaignFactory(languages=["de"])
    outputs_store(campaign=campaign, rows=[OutputRow(item_id="m", input="", system="a", text="t")])
    assert Output.objects.get().language == "de"
