"""The submit of a task (``annotations.views.judgements``) pins its SQL statement count, as
the session's hot requests do (test_sessions_queries.py): the counts are exact so that a
rise fails here; lower them when a change saves a statement.
"""

from __future__ import annotations

import pytest

from annotations.models import (
    Assignment,
    Judgement,
    Task,
    TaskOutput,
    WorkerCheck,
)
from tests.annotations.setups_data import built
from tests.annotations.views.worker_pages import (
    consented,
    four_task_campaign,
    session_url,
    submit_url,
    valid_scores,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_cached_task_bounds")]

# Statements per submit (set-up 2, a magnitude criterion, three outputs per task).
SUBMIT = 9
# All outputs scored alike: the uniform-scoring check reads the worker's recent judgements.
SUBMIT_UNIFORM = 10
SUBMIT_ATTENTION = 12
# A set-up 1 page of two criteria (quality and naturalness, three outputs); the
# progress bar is read only when the page is shown again (it was 33 when every submit
# read it, through a query for the worker it had already).
SUBMIT_TOGETHER = 31


def test_submit(client, django_assert_num_queries):
    campaign = four_task_campaign()
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    assignment = Assignment.objects.get(worker=worker)
    with django_assert_num_queries(SUBMIT):
        response = client.post(submit_url(campaign, worker, assignment), valid_scores(assignment))
    assert response.status_code == 303
    assert Judgement.objects.filter(worker=worker).count() == 1


def test_submit_of_uniform_scores_reads_the_recent_judgements(client, django_assert_num_queries):
    campaign = four_task_campaign()
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    assignment = Assignment.objects.get(worker=worker)
    scores = {f"score_{s}": "100" for s in assignment.display_order}
    with django_assert_num_queries(SUBMIT_UNIFORM):
        response = client.post(submit_url(campaign, worker, assignment), scores)
    assert response.status_code == 303


def test_submit_of_an_attention_check(client, django_assert_num_queries):
    campaign = four_task_campaign(attention_check_rate=1.0)
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    assignment = Assignment.objects.select_related("task").get(worker=worker)
    assert assignment.task.kind == Task.Kind.ATTENTION
    # The copy scored below its original: the check passes (a failed one would add the
    # worker's flag, whichever slot the seeded copy landed in).
    copy = TaskOutput.objects.get(task=assignment.task, role=TaskOutput.Role.DEGRADED).slot
    scores = {f"score_{s}": "50" if s == copy else "200" for s in assignment.display_order}
    with django_assert_num_queries(SUBMIT_ATTENTION):
        response = client.post(submit_url(campaign, worker, assignment), scores)
    assert response.status_code == 303
    check = WorkerCheck.objects.get(worker=worker, kind=WorkerCheck.Kind.ATTENTION)
    assert check.passed


def test_submit_of_a_together_page(client, django_assert_num_queries):
    campaign = built()
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    page = list(Assignment.objects.filter(worker=worker, state="active").order_by("id"))
    assert len(page) == 2
    scores = {
        f"c{a.criterion_id}-score_{s}": str(60 + 10 * i)
        for a in page
        for i, s in enumerate(a.display_order)
    }
    with django_assert_num_queries(SUBMIT_TOGETHER):
        response = client.post(submit_url(campaign, worker, page[0]), scores)
    assert response.status_code == 303
    assert Judgement.objects.filter(worker=worker).count() == 2
