"""Excluding a worker (annotations/services/workers.py), with a reason, and undoing it;
freeing a platform id someone else took first."""

from __future__ import annotations

from decimal import Decimal

import pytest

from annotations.models import Assignment, Campaign, Worker
from annotations.selectors import payments as payment_selectors
from annotations.services import assignment as assignment_services
from annotations.services import languages as language_services
from annotations.services import sessions as session_services
from annotations.services import workers as worker_services
from common.errors import DomainError
from tests.annotations.designer_data import judged_campaign
from tests.factories import (
    live_campaign_with_tasks,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def live() -> Campaign:
    return live_campaign_with_tasks()


def test_exclude_a_worker_with_a_reason_and_undo():
    campaign = judged_campaign()
    worker = campaign.workers.order_by("id").first()
    assert worker is not None
    with pytest.raises(DomainError, match="Say why"):
        worker_services.worker_exclude(worker=worker, reason="   ")
    worker.refresh_from_db()
    assert not worker.excluded
    worker_services.worker_exclude(worker=worker, reason="Same score for every output")
    worker.refresh_from_db()
    assert worker.excluded and worker.exclusion_reason == "Same score for every output"
    assert worker.judgements.count() == 4  # judgements stay stored
    worker_services.worker_include(worker=worker)
    worker.refresh_from_db()
    assert not worker.excluded and worker.exclusion_reason == ""


def test_worker_mark_refuses_an_exclusion_without_a_reason():
    """Every door calls worker_mark; the rule is there, not only in worker_exclude."""
    campaign = judged_campaign()
    worker = campaign.workers.order_by("id").first()
    assert worker is not None
    for reason in (None, "", "  "):
        with pytest.raises(DomainError, match="Say why") as excinfo:
            worker_services.worker_mark(worker=worker, excluded=True, reason=reason)
        assert excinfo.value.field == "reason"
    worker.refresh_from_db()
    assert not worker.excluded
    worker_services.worker_mark(worker=worker, flagged=True)  # other marks need no reason
    worker.refresh_from_db()
    assert worker.flagged and not worker.excluded


def test_releasing_a_taken_id_frees_it_for_its_owner_and_keeps_the_record_excluded(live):
    """Someone who knew a participant's Prolific id started the study with it first; its
    owner is refused (``SessionElsewhere``) and writes to the researchers. Releasing the
    id excludes and stops the record that held it, ends its active assignment (its place
    is free), keeps its judgements and the id in its metadata, and lets the owner enrol
    as a new worker with the same id."""
    campaign = live
    taken = session_services.worker_enrol(
        campaign=campaign,
        platform="prolific",
        external_id="5f1e2d3c4b5a69788796a5b4",
        metadata={"study_id": "st", "session_id": "guessed"},
    )
    page = assignment_services.page_next_for(worker=taken, campaign=campaign)
    assert page.assignment is not None
    task = page.assignment.task
    task.refresh_from_db()
    assert task.places_held == 1
    owner = dict(
        campaign=campaign,
        platform="prolific",
        external_id="5f1e2d3c4b5a69788796a5b4",
        metadata={"study_id": "st", "session_id": "real"},
    )
    with pytest.raises(session_services.SessionElsewhere):
        session_services.worker_enrol(**owner)

    with pytest.raises(DomainError, match="Say why"):
        worker_services.worker_release_identity(worker=taken, reason=" ")
    released = worker_services.worker_release_identity(
        worker=taken, reason="Started with someone else's id"
    )

    assert released.excluded and released.stopped
    assert released.exclusion_reason == "Started with someone else's id"
    assert released.external_id == f"5f1e2d3c4b5a69788796a5b4~released-{taken.pk}"
    assert released.metadata[Worker.RELEASED_ID_KEY] == "5f1e2d3c4b5a69788796a5b4"
    assert released.metadata["session_id"] == "guessed"
    assert {a.state for a in Assignment.objects.filter(worker=taken)} == {"expired"}
    task.refresh_from_db()
    assert task.places_held == 0
    assert assignment_services.page_next_for(worker=released, campaign=campaign).assignment is None
    mine = session_services.worker_enrol(**owner)
    assert mine.pk != taken.pk and mine.external_id == "5f1e2d3c4b5a69788796a5b4"
    assert not mine.excluded and mine.metadata["session_id"] == "real"
    # A second release of the same record changes nothing.
    again = worker_services.worker_release_identity(worker=released, reason="again")
    assert again.external_id == released.external_id
    assert again.exclusion_reason == "Started with someone else's id"


def test_an_excluded_worker_keeps_their_reason_and_a_long_id_stays_in_its_column(live):
    campaign = live
    long_id = "p" * 200
    worker = session_services.worker_enrol(
        campaign=campaign, platform="prolific", external_id=long_id, metadata={}
    )
    worker_services.worker_exclude(worker=worker, reason="Rushed")
    released = worker_services.worker_release_identity(worker=worker, reason="")
    assert released.exclusion_reason == "Rushed"
    assert len(released.external_id) == 200
    assert released.external_id.endswith(f"~released-{worker.pk}")
    assert released.metadata[Worker.RELEASED_ID_KEY] == long_id
    fresh = session_services.worker_enrol(
        campaign=campaign, platform="prolific", external_id=long_id, metadata={}
    )
    assert fresh.pk != worker.pk


def test_a_release_gives_the_language_place_back_and_pays_nothing(live):
    """The language quota counted the released record: its owner found the language full
    (409). And its payment stayed approved with a bonus, under the renamed id in the
    files Prolific reads."""
    campaign = live
    campaign.languages, campaign.language_quotas = ["en", "de"], {"de": 1}
    campaign.save(update_fields=["languages", "language_quotas"])
    taken = session_services.worker_enrol(
        campaign=campaign,
        platform="prolific",
        external_id="DEVICTIM01",
        metadata={"session_id": "s1"},
        language="de",
    )
    taken.review, taken.bonus = "approved", Decimal("2.50")
    taken.save(update_fields=["review", "bonus"])
    assert language_services.language_quota_full(campaign=campaign, language="de")

    worker_services.worker_release_identity(worker=taken, reason="Not the owner")

    assert not language_services.language_quota_full(campaign=campaign, language="de")
    taken.refresh_from_db()
    assert taken.review == "rejected" and taken.bonus == 0
    assert payment_selectors.prolific_approved(campaign=campaign) == []
    assert payment_selectors.prolific_bonuses(campaign=campaign) == []
    owner = session_services.worker_enrol(
        campaign=campaign,
        platform="prolific",
        external_id="DEVICTIM01",
        metadata={"session_id": "s2"},
        language="de",
    )
    assert owner.language == "de" and owner.pk != taken.pk


def test_only_a_platform_id_can_be_freed_and_a_freed_one_is_not_kept_afterwards(live):
    """A plain-link worker's id is their browser's own secret: freeing it used to let
    them start again, not excluded. And a second release asking to keep the id for its
    owner looked done (200) while nothing was kept."""
    link = session_services.worker_enrol(
        campaign=live, platform="link", external_id="anon-1", metadata={}
    )
    for owner_session in ("", "abc"):
        with pytest.raises(DomainError, match="Only a Prolific or MTurk id") as refused:
            worker_services.worker_release_identity(
                worker=link, reason="x", owner_session=owner_session
            )
        assert refused.value.field == "owner_session"
    link.refresh_from_db()
    assert not link.excluded and not link.released
    taken = session_services.worker_enrol(
        campaign=live, platform="prolific", external_id="P-1", metadata={"session_id": "f"}
    )
    worker_services.worker_release_identity(worker=taken, reason="not theirs")
    with pytest.raises(DomainError, match="freed already"):
        worker_services.worker_release_identity(worker=taken, reason="", owner_session="real")
    assert not Worker.objects.filter(external_id="P-1").exists()
