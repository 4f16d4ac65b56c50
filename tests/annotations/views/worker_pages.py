"""A crowd worker's pages in the view tests (sessions, the task page and its submit,
drafts, their statement counts): a live campaign of four tasks, a consented worker,
their pages' URLs, the identity a consent page signs, the page's first assignment and
valid scores."""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Assignment, Campaign, Worker
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs


def four_task_campaign(**fields) -> Campaign:
    """A live campaign of one criterion and four tasks (numbered), three per worker."""
    campaign = CampaignFactory(status=Campaign.Status.LIVE, tasks_per_worker=3, **fields)
    criterion = CriterionFactory(campaign=campaign)
    for number in range(4):
        task_with_outputs(campaign=campaign, criterion=criterion, number=number)
    return campaign


def consented(campaign: Campaign, **fields) -> Worker:
    return WorkerFactory(campaign=campaign, consented_at=timezone.now(), **fields)


def session_url(campaign: Campaign, worker: Worker) -> str:
    return reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])


def submit_url(campaign: Campaign, worker: Worker, assignment: Assignment) -> str:
    return reverse(
        "annotations:worker-submit", args=[campaign.slug, worker_token(worker), assignment.pk]
    )


def draft_url(campaign: Campaign, worker: Worker, assignment: Assignment) -> str:
    return reverse(
        "annotations:worker-draft", args=[campaign.slug, worker_token(worker), assignment.pk]
    )


def page_lead(worker: Worker) -> Assignment:
    """The worker's first active assignment: on a set-up 1 page, the one the page posts to."""
    assignment = Assignment.objects.filter(worker=worker, state="active").order_by("id").first()
    assert assignment is not None
    return assignment


def valid_scores(assignment: Assignment) -> dict[str, str]:
    """Magnitude scores for every output of a one-criterion page (100, 110, 120...)."""
    return {f"score_{s}": str(100 + 10 * i) for i, s in enumerate(assignment.display_order)}


def signed_identity(html: bytes) -> str:
    """The identity a new worker's consent page carries, signed, to ``start``."""
    found = re.search(rb'name="identity" value="([^"]+)"', html)
    assert found, "the consent page carries no signed identity"
    return found.group(1).decode()
