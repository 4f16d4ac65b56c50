"""A worker's identity (annotations/services/sessions.py) is stable and merges metadata."""

from __future__ import annotations

import pytest

from annotations.models import Worker
from annotations.services.sessions import worker_get_or_create
from tests.annotations.built_campaigns import live_campaign

pytestmark = pytest.mark.django_db


def test_worker_get_or_create_is_stable_and_merges_metadata():
    campaign = live_campaign()
    first = worker_get_or_create(
        campaign=campaign, platform="prolific", external_id="P1", metadata={"study_id": "S"}
    )
    again = worker_get_or_create(
        campaign=campaign, platform="prolific", external_id="P1", metadata={"session_id": "X"}
    )
    assert first.pk == again.pk
    again.refresh_from_db()
    assert again.metadata == {"study_id": "S", "session_id": "X"}
    assert Worker.objects.count() == 1


def test_a_consent_that_loses_the_race_to_create_the_worker_gets_the_winners_row(monkeypatch):
    """Two first requests of one worker at once: the second's read saw no row, its insert
    meets the unique identity; it rolls back to its savepoint and takes the row the first
    created (one worker, the transaction still usable), or refuses it to another person."""
    from annotations.selectors import platforms as platform_selectors
    from annotations.services import sessions as session_services

    campaign = live_campaign()
    winner = worker_get_or_create(
        campaign=campaign, platform="prolific", external_id="P1", metadata={"session_id": "A"}
    )
    # The loser read before the winner inserted.
    monkeypatch.setattr(platform_selectors, "worker_with_identity", lambda **_: None)
    same = session_services.worker_enrol(
        campaign=campaign,
        platform="prolific",
        external_id="P1",
        metadata={"session_id": "A", "study_id": "S"},
    )
    assert same.pk == winner.pk and Worker.objects.count() == 1
    same.refresh_from_db()
    assert same.consented_at is not None and same.metadata["study_id"] == "S"
    with pytest.raises(session_services.SessionElsewhere):
        session_services.worker_enrol(
            campaign=campaign, platform="prolific", external_id="P1", metadata={"session_id": "B"}
        )
    assert Worker.objects.count() == 1


def test_a_new_worker_is_created_as_consented_in_one_insert(django_assert_num_queries):
    """The consent of a new worker writes one row (its consent time in it), no update."""
    from annotations.services.sessions import worker_enrol

    campaign = live_campaign()
    # The enrolment's savepoint (the test's transaction holds it), the row read, the insert
    # in its own savepoint and the two releases: no UPDATE of the consent time (7 before).
    with django_assert_num_queries(6):
        worker = worker_enrol(campaign=campaign, platform="prolific", external_id="P2", metadata={})
    assert worker.consented_at is not None
    assert Worker.objects.get(pk=worker.pk).consented_at == worker.consented_at
