"""Each worker gets the code for how their session ended: completed, failed the checks,
or screened out (turned away before any task because none can be given to them)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from annotations.access.workers import worker_token
from annotations.models import Assignment, Campaign, Worker
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db


CODES = {"completion_code": "DONE42", "failed_check_code": "FAIL13", "screened_out_code": "SCRN77"}


def _campaign(**fields) -> Campaign:
    c = CampaignFactory(status=Campaign.Status.LIVE, **CODES, **fields)
    crit = CriterionFactory(campaign=c)
    for _ in range(fields.get("tasks_per_worker", 1)):
        task_with_outputs(campaign=c, criterion=crit)
    return c


def _session(campaign: Campaign, worker: Worker) -> str:
    return reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])


def _worker(campaign: Campaign, **fields) -> Worker:
    return WorkerFactory(campaign=campaign, consented_at=timezone.now(), **fields)


def _finish_current_task(client, campaign: Campaign, worker: Worker) -> None:
    client.get(_session(campaign, worker))
    a = Assignment.objects.get(worker=worker, state="active")
    scores = {f"score_{s}": str(100 + 10 * i) for i, s in enumerate(a.display_order)}
    url = reverse("annotations:worker-submit", args=[campaign.slug, worker_token(worker), a.pk])
    client.post(url, scores)


def _codes_in(html: str) -> set[str]:
    return {code for code in CODES.values() if code in html}


def test_completed_worker_gets_the_completion_code_only(client):
    c = _campaign(tasks_per_worker=1)
    worker = _worker(c, platform="link")
    _finish_current_task(client, c, worker)
    html = client.get(_session(c, worker)).content.decode()
    assert _codes_in(html) == {"DONE42"}


def test_stopped_worker_gets_the_failed_check_code_only(client):
    c = _campaign(tasks_per_worker=1)
    worker = _worker(c, platform="prolific", stopped=True)
    html = client.get(_session(c, worker)).content.decode()
    assert _codes_in(html) == {"FAIL13"}
    assert "https://app.prolific.com/submissions/complete?cc=FAIL13" in html


def test_worker_turned_away_from_a_full_campaign_gets_the_screened_out_code(client):
    c = _campaign(judgements_per_task=1, tasks_per_worker=1)
    first = _worker(c, platform="prolific", external_id="FIRST")
    client.get(_session(c, first))  # holds the only task
    late = _worker(c, platform="prolific", external_id="LATE")
    response = client.get(_session(c, late))
    html = response.content.decode()
    assert response.status_code == 200
    assert _codes_in(html) == {"SCRN77"}
    url = "https://app.prolific.com/submissions/complete?cc=SCRN77"
    assert 'http-equiv="refresh"' not in html  # a button, no timed redirect
    assert f'href="{url}"' in html
    assert not Assignment.objects.filter(worker=late).exists()


def test_worker_arriving_after_every_judgement_is_in_is_screened_out(client):
    c = _campaign(judgements_per_task=1, tasks_per_worker=1)
    first = _worker(c, platform="link")
    _finish_current_task(client, c, first)
    late = _worker(c, platform="mturk", metadata={"assignment_id": "A7"})
    html = client.get(_session(c, late)).content.decode()
    assert _codes_in(html) == {"SCRN77"}
    assert 'name="completionCode" value="SCRN77"' in html
    # The worker who finished still reads the completion code, not the screened-out one.
    assert _codes_in(client.get(_session(c, first)).content.decode()) == {"DONE42"}
