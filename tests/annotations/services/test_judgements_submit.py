"""A worker's submit of a page (``annotations.services.judgements.assignment_submit``):
idempotent, and a refused answer rolled back and then kept as the draft."""

from __future__ import annotations

import pytest
from django.utils import timezone

from annotations.models import Assignment, Campaign, Judgement, Worker
from annotations.selectors.judgements import page_assignments
from annotations.services.assignment import page_next_for, task_next_for
from annotations.services.judgements import (
    PageAnswers,
    SubmitOutcome,
    TooFast,
    assignment_submit,
)
from tests.annotations.setups_data import built
from tests.factories import CampaignFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db

ENTERED = {"score_0": ["120"], "score_1": ["abc"], "csrfmiddlewaretoken": ["x"]}


def _claimed(**campaign_fields) -> Assignment:
    campaign = CampaignFactory(status=Campaign.Status.LIVE, **campaign_fields)
    task_with_outputs(campaign=campaign)
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    assignment = task_next_for(worker=worker, campaign=campaign)
    assert assignment is not None
    return assignment


def _answers(assignment: Assignment, seen: list | None = None):
    """What a valid form gives for ``assignment``'s one task; records the parts it saw."""

    def answers(parts):
        if seen is not None:
            seen.append(parts)
        return PageAnswers(
            scores={assignment.criterion_id: {0: 150, 1: 100, 2: 120}},
            checks={assignment.criterion_id: {}},
            metadata={"js": True},
        )

    return answers


def _seen_at(worker: Worker):
    return Worker.objects.get(pk=worker.pk).last_seen_at


def test_a_page_of_one_task_is_recorded_once():
    assignment = _claimed()
    seen: list = []
    submitted = assignment_submit(
        worker=assignment.worker,
        assignment_id=assignment.pk,
        answers=_answers(assignment, seen),
        entered={},
    )
    assert submitted.outcome == SubmitOutcome.RECORDED and not submitted.together
    assert submitted.assignment is not None and submitted.assignment.pk == assignment.pk
    ((part,),) = seen  # the page as read under the lock: one task
    assert part[0].pk == assignment.pk and part[1].letters
    judgement = Judgement.objects.get(assignment=assignment)
    assert judgement.metadata == {"js": True}
    # Again (a double click, a retry): nothing asked of the form, nothing written.
    again = assignment_submit(
        worker=assignment.worker,
        assignment_id=assignment.pk,
        answers=lambda parts: pytest.fail("the form is not read again"),
        entered=ENTERED,
    )
    assert again.outcome == SubmitOutcome.ALREADY
    assert Judgement.objects.filter(assignment=assignment).count() == 1
    assignment.refresh_from_db()
    assert assignment.draft == {}


def test_an_assignment_of_another_worker_is_unknown_and_nothing_is_written():
    assignment = _claimed()
    other = WorkerFactory(campaign=assignment.worker.campaign)
    submitted = assignment_submit(
        worker=other,
        assignment_id=assignment.pk,
        answers=lambda parts: pytest.fail("the form is not read"),
        entered=ENTERED,
    )
    assert submitted.outcome == SubmitOutcome.UNKNOWN and submitted.assignment is None
    assignment.refresh_from_db()
    assert assignment.state == Assignment.State.ACTIVE and assignment.draft == {}


def test_answers_the_form_refuses_are_rolled_back_and_kept_as_the_draft():
    assignment = _claimed()
    before = _seen_at(assignment.worker)
    submitted = assignment_submit(
        worker=assignment.worker,
        assignment_id=assignment.pk,
        answers=lambda parts: None,
        entered=ENTERED,
    )
    assert submitted.outcome == SubmitOutcome.INVALID and submitted.error is None
    assert _seen_at(assignment.worker) == before  # the stamp went with the rollback
    assignment.refresh_from_db()
    assert assignment.state == Assignment.State.ACTIVE
    assert assignment.draft == {"score_0": "120", "score_1": "abc"}  # answer fields only


def test_answers_a_rule_refuses_are_rolled_back_and_kept_as_the_draft():
    assignment = _claimed(min_seconds_per_task=600, min_time_policy="refuse")
    before = _seen_at(assignment.worker)
    submitted = assignment_submit(
        worker=assignment.worker,
        assignment_id=assignment.pk,
        answers=_answers(assignment),
        entered=ENTERED,
    )
    assert submitted.outcome == SubmitOutcome.REFUSED
    assert isinstance(submitted.error, TooFast)
    assert not Judgement.objects.exists()
    assert _seen_at(assignment.worker) == before
    assignment.refresh_from_db()
    assert assignment.draft == {"score_0": "120", "score_1": "abc"}


def test_a_together_page_is_read_whole_and_its_refusal_writes_no_draft():
    campaign = built()
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    lead = page_next_for(worker=worker, campaign=campaign).assignment
    assert lead is not None
    seen: list = []

    def refused(parts):
        seen.append(parts)
        return None

    submitted = assignment_submit(
        worker=worker, assignment_id=lead.pk, answers=refused, entered=ENTERED
    )
    assert submitted.outcome == SubmitOutcome.INVALID and submitted.together
    (parts,) = seen
    assert [a.pk for a, _ in parts] == [a.pk for a in page_assignments(assignment=lead)]
    assert len(parts) == 2
    lead.refresh_from_db()
    assert lead.draft == {}

    def valid(parts):
        return PageAnswers(
            scores={a.criterion_id: {s: 60.0 + s for s in page.letters} for a, page in parts},
            checks={},
            metadata={"setup": "together"},
        )

    recorded = assignment_submit(worker=worker, assignment_id=lead.pk, answers=valid, entered={})
    assert recorded.outcome == SubmitOutcome.RECORDED and recorded.together
    assert Judgement.objects.filter(worker=worker).count() == 2
