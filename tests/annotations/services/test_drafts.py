"""Autosaved drafts (annotations/services/drafts.py) keep answer fields only, until submitted."""

from __future__ import annotations

import pytest

from annotations.services.assignment import (
    task_next_for,
)
from annotations.services.judgements import judgement_submit
from tests.annotations.built_campaigns import live_campaign
from tests.factories import (
    WorkerFactory,
    task_with_outputs,
)

pytestmark = pytest.mark.django_db


# Drafts (autosave) --------------------------------------------------------------------------


def test_draft_keeps_answer_fields_only_and_stops_once_submitted():
    from annotations.services.drafts import assignment_draft_save

    campaign = live_campaign()
    task_with_outputs(campaign=campaign)
    a = task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign)
    assert a is not None
    posted = {
        "score_0": ["120"],
        "score_1": ["9" * 100],
        "c12-score_2": ["7"],
        "check_0": ["missing", "added"],
        "csrfmiddlewaretoken": ["secret"],
        "js": ["1"],
        "score_x": ["1"],
    }
    assert assignment_draft_save(worker_id=a.worker_id, assignment_id=a.pk, answers=posted) is True
    a.refresh_from_db()
    assert a.draft == {
        "score_0": "120",
        "score_1": "9" * 40,
        "c12-score_2": "7",
        "check_0": ["missing", "added"],
    }
    judgement_submit(assignment=a, scores={0: 1, 1: 2, 2: 3})
    assert (
        assignment_draft_save(worker_id=a.worker_id, assignment_id=a.pk, answers={"score_0": ["5"]})
        is False
    )
    a.refresh_from_db()
    assert a.draft["score_0"] == "120"


def test_an_expired_assignment_still_takes_drafts_as_its_late_submit_may_count():
    """The worker of an expired task may still submit it (accepted while the task has a
    free place): its page keeps autosaving instead of being told the task is done."""
    from annotations.models import Assignment
    from annotations.services.drafts import assignment_draft_save

    campaign = live_campaign()
    task_with_outputs(campaign=campaign)
    a = task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign)
    assert a is not None
    Assignment.objects.filter(pk=a.pk).update(state=Assignment.State.EXPIRED)
    saved = assignment_draft_save(
        worker_id=a.worker_id, assignment_id=a.pk, answers={"score_0": ["77"]}
    )
    assert saved is True
    a.refresh_from_db()
    assert a.draft == {"score_0": "77"} and a.state == Assignment.State.EXPIRED
