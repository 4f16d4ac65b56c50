"""Fixtures shared by the tests of this folder."""

from __future__ import annotations

import pytest

from annotations.models import Criterion
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import users
from tests.annotations.markdown_data import ATTACKS


@pytest.fixture
def campaign(db):
    people = users()
    campaign = campaign_create(
        slug="md",
        owner=people["owner"],
        instructions=ATTACKS,
        consent_text="By taking part you agree to **our terms**.\n\n<script>bad()</script>",
        tasks_per_worker=4,
    )
    criterion_from_preset(campaign=campaign, preset="quality")
    criterion_from_preset(campaign=campaign, preset="grammar")
    criterion_from_preset(campaign=campaign, preset="relevance")
    Criterion.objects.create(
        campaign=campaign, name="overall", question="How good overall?", scale="slider", position=3
    )
    campaign.criteria.filter(name="quality").update(scale_settings={"standard": 80})
    return campaign
