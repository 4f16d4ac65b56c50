"""Fixtures shared by the tests of this folder."""

from __future__ import annotations

import pytest

from annotations.models import Campaign, CampaignMembership
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import add_member, judged_campaign, users
from tests.factories import CampaignFactory


@pytest.fixture
def people(db):
    return users()


@pytest.fixture
def owner_client(client, people):
    client.force_login(people["owner"])
    return client


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


@pytest.fixture
def campaign() -> Campaign:
    # Three Prolific workers (PID0000..PID0002) who each judged 4 tasks.
    c = judged_campaign(n_workers=3)
    c.quality_threshold = 0.5
    c.save(update_fields=["quality_threshold"])
    return c
