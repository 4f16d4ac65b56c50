"""Fixtures shared by the tests of this folder."""

from __future__ import annotations

import pytest

from annotations.models import Campaign, Criterion
from annotations.services import assignment as assignment_services
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset
from tests.annotations.designer_data import users
from tests.annotations.markdown_data import ATTACKS
from tests.factories import (
    live_campaign_with_tasks,
)


@pytest.fixture
def campaign(db) -> Campaign:
    """A live campaign of one criterion and three tasks, two per worker (the worker's
    pages: sessions, the task page, its submit)."""
    return live_campaign_with_tasks(completion_code="DONE42")


@pytest.fixture
def no_cached_task_bounds(monkeypatch):
    """The hand-out caches each campaign's task id range per process; a campaign of an
    earlier test may have had this one's id, so a test that counts statements starts
    without the cache."""
    monkeypatch.setattr(assignment_services, "_task_id_bounds", {})


@pytest.fixture
def markdown_campaign(db):
    """A campaign in design whose designer texts are hostile Markdown."""
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
