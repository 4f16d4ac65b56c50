"""The submit of a task (``annotations.views.judgements``) pins its SQL statement count, as
the session's hot requests do (test_sessions_queries.py): the counts are exact so that a
rise fails here; lower them when a change saves a statement.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import (
    Assignment,
    Campaign,
    Judgement,
    Task,
    TaskOutput,
    Worker,
    WorkerCheck,
)
from annotations.services import assignment as assignment_services
from tests.annotations.setups_data import built
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db

# Statements per submit (set-up 2, a magnitude criterion, three outputs per task).
SUBMIT = 9
# All outputs scored alike: the uniform-scoring check reads the worker's recent judgements.
SUBMIT_UNIFORM = 10
SUBMIT_ATTENTION = 12
# A set-up 1 page of two criteria (quality and naturalness, three outputs); the
# progress bar is read only when the page is shown again (it was 33 when every submit
# read it, through a query for the worker it had already).
SUBMIT_TOGETHER = 31


@pytest.fixture(autouse=True)
def _no_cached_task_bounds(monkeypatch):
    # The hand-out caches each campaign's task id range per process; a campaign of an
    # earlier test may have had this one's id, so every test starts without the cache.
    monkeypatch.setattr(assignment_services, "_task_id_bounds", {})


def _campaign(**fields) -> Campaign:
    campaign = CampaignFactory(status=Campaign.Status.LIVE, tasks_per_worker=3, **fields)
    criterion = CriterionFactory(campaign=campaign)
    for number in range(4):
        task_with_outputs(campaign=campaign, criterion=criterion, number=number)
    return campaign


def _session_url(campaign: Campaign, worker: Worker) -> str:
    return reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])


def _submit_url(campaign: Campaign, worker: Worker, assignment: Assignment) -> str:
    return reverse(
        "annotations:worker-submit", args=[campaign.slug, worker_token(worker), assignment.pk]
    )


def _consented(campaign: Campaign) -> Worker:
    return WorkerFactory(campaign=campaign, consented_at=timezone.now())


def _scores(assignment: Assignment) -> dict[str, str]:
    return {f"score_{s}": str(100 + 10 * i) for i, s in enumerate(assignment.display_order)}


def test_submit(client, django_assert_num_queries):
    campaign = _campaign()
    worker = _consented(campaign)
    client.get(_session_url(campaign, worker))
    assignment = Assignment.objects.get(worker=worker)
    with django_assert_num_queries(SUBMIT):
        response = client.post(_submit_url(campaign, worker, assignment), _scores(assignment))
    assert response.status_code == 303
    assert Judgement.objects.filter(worker=worker).count() == 1


def test_submit_of_uniform_scores_reads_the_recent_judgements(client, django_assert_num_queries):
    campaign = _campaign()
    worker = _consented(campaign)
    client.get(_session_url(campaign, worker))
    assignment = Assignment.objects.get(worker=worker)
    scores = {f"score_{s}": "100" for s in assignment.display_order}
    with django_assert_num_queries(SUBMIT_UNIFORM):
        response = client.post(_submit_url(campaign, worker, assignment), scores)
    assert response.status_code == 303


def test_submit_of_an_attention_check(client, django_assert_num_queries):
    campaign = _campaign(attention_check_rate=1.0)
    worker = _consented(campaign)
    client.get(_session_url(campaign, worker))
    assignment = Assignment.objects.select_related("task").get(worker=worker)
    assert assignment.task.kind == Task.Kind.ATTENTION
    # The copy scored below its original: the check passes (a failed one would add the
    # worker's flag, whichever slot the seeded copy landed in).
    copy = TaskOutput.objects.get(task=assignment.task, role=TaskOutput.Role.DEGRADED).slot
    scores = {f"score_{s}": "50" if s == copy else "200" for s in assignment.display_order}
    with django_assert_num_queries(SUBMIT_ATTENTION):
        response = client.post(_submit_url(campaign, worker, assignment), scores)
    assert response.status_code == 303
    check = WorkerCheck.objects.get(worker=worker, kind=WorkerCheck.Kind.ATTENTION)
    assert check.passed


def test_submit_of_a_together_page(client, django_assert_num_queries):
    campaign = built()
    worker = _consented(campaign)
    client.get(_session_url(campaign, worker))
    page = list(Assignment.objects.filter(worker=worker, state="active").order_by("id"))
    assert len(page) == 2
    scores = {
        f"c{a.criterion_id}-score_{s}": str(60 + 10 * i)
        for a in page
        for i, s in enumerate(a.display_order)
    }
    with django_assert_num_queries(SUBMIT_TOGETHER):
        response = client.post(_submit_url(campaign, worker, page[0]), scores)
    assert response.status_code == 303
    assert Judgement.objects.filter(worker=worker).count() == 2
