"""``annotations.selectors.sessions``: texts in the worker's language."""

from __future__ import annotations

import pytest

from annotations.models import Criterion
from annotations.selectors.sessions import campaign_in_language, criterion_in_language
from tests.factories import CampaignFactory, CriterionFactory

pytestmark = pytest.mark.django_db


def test_a_regional_tag_reads_the_texts_of_its_base_language():
    # The task and consent pages read translations as the rest of the worker pages do: a
    # worker judging de-AT outputs reads the campaign's German texts (before, only an
    # exact tag matched and this worker read English on those two pages alone).
    campaign = CampaignFactory(
        name="Rate outputs",
        translations={"de": {"name": "Ausgaben bewerten", "consent_text": "Ich stimme zu."}},
    )
    criterion = CriterionFactory(
        campaign=campaign,
        scale=Criterion.Scale.MAGNITUDE,
        question="How good is it?",
        translations={"de": {"question": "Wie gut ist sie?"}},
    )
    shown = campaign_in_language(campaign, "de-AT")
    assert (shown.name, shown.consent_text) == ("Ausgaben bewerten", "Ich stimme zu.")
    assert criterion_in_language(criterion, "de-AT").question == "Wie gut ist sie?"
    # An exact tag still wins, and another language reads the original.
    campaign.translations["de-AT"] = {"name": "Ausgaben beurteilen"}
    assert campaign_in_language(campaign, "de-AT").name == "Ausgaben beurteilen"
    assert campaign_in_language(campaign, "fr").name == "Rate outputs"
    assert criterion_in_language(criterion, "fr").question == "How good is it?"
    # Copies for display: the stored rows are unchanged.
    assert campaign.name == "Rate outputs" and criterion.question == "How good is it?"
