"""Enrolling and recognising workers met through links (annotations/services/sessions.py):
a platform id alone is no proof."""

from __future__ import annotations

import pytest
from django.db import IntegrityError
from django.utils import timezone

from annotations.models import Campaign, Worker
from annotations.selectors.platforms import Arrival
from annotations.services import sessions as session_services
from annotations.services.sessions import SessionElsewhere
from tests.factories import CampaignFactory, WorkerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def victim() -> Worker:
    campaign = CampaignFactory(status=Campaign.Status.LIVE)
    return WorkerFactory(
        campaign=campaign,
        platform="mturk",
        external_id="AV1",
        consented_at=timezone.now(),
        metadata={"assignment_id": "A-V", "hit_id": "H", "turk_submit_to": "https://x"},
    )


def test_returning_needs_the_platform_session_and_writes_nothing_otherwise(victim):
    stranger = Arrival("mturk", "AV1", {"assignment_id": "A-S", "turk_submit_to": "https://y"})
    with pytest.raises(SessionElsewhere):
        session_services.worker_returning(campaign=victim.campaign, arrival=stranger)
    same = Arrival("mturk", "AV1", {"assignment_id": "A-V", "hit_id": "H2"})
    assert session_services.worker_returning(campaign=victim.campaign, arrival=same) == victim
    victim.refresh_from_db()
    assert victim.metadata["hit_id"] == "H2"  # the proven link's metadata is kept
    # The browser's cookie continues the session without rewriting the platform ids.
    assert (
        session_services.worker_returning(
            campaign=victim.campaign, arrival=stranger, session_worker_id=victim.pk
        )
        == victim
    )
    victim.refresh_from_db()
    assert victim.metadata["assignment_id"] == "A-V"


def test_enrolling_an_existing_id_needs_proof_and_writes_nothing_otherwise(victim):
    before = (victim.metadata, victim.consented_at)
    with pytest.raises(SessionElsewhere):
        session_services.worker_enrol(
            campaign=victim.campaign,
            platform="mturk",
            external_id="AV1",
            metadata={"assignment_id": "A-S", "turk_submit_to": "https://y"},
        )
    victim.refresh_from_db()
    assert (victim.metadata, victim.consented_at) == before
    again = session_services.worker_enrol(
        campaign=victim.campaign,
        platform="mturk",
        external_id="AV1",
        metadata={"assignment_id": "A-V", "hit_id": "H"},
    )
    assert again == victim


def test_enrolment_that_loses_the_insert_race_still_needs_proof(victim, monkeypatch):
    """Two first consents of one id at once: the one whose insert fails reads the other's
    worker, and gets it only with the same proof."""

    def racing(**kwargs):
        raise IntegrityError("worker_unique_identity")

    monkeypatch.setattr(Worker.objects, "get_or_create", racing)
    with pytest.raises(SessionElsewhere):
        session_services.worker_enrol(
            campaign=victim.campaign,
            platform="mturk",
            external_id="AV1",
            metadata={"assignment_id": "A-S"},
        )
    victim.refresh_from_db()
    assert victim.metadata["assignment_id"] == "A-V"
