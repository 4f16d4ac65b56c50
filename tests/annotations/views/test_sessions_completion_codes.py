"""Each worker gets the code for how their session ended: completed, failed the checks,
or screened out (turned away before any task because none can be given to them)."""

from __future__ import annotations

import pytest

from annotations.models import Assignment, Campaign, Worker
from tests.annotations.views.worker_pages import consented, session_url, submit_url, valid_scores
from tests.factories import CampaignFactory, CriterionFactory, task_with_outputs

pytestmark = pytest.mark.django_db


CODES = {"completion_code": "DONE42", "failed_check_code": "FAIL13", "screened_out_code": "SCRN77"}


def _campaign(**fields) -> Campaign:
    c = CampaignFactory(status=Campaign.Status.LIVE, **CODES, **fields)
    crit = CriterionFactory(campaign=c)
    for _ in range(fields.get("tasks_per_worker", 1)):
        task_with_outputs(campaign=c, criterion=crit)
    return c


def _finish_current_task(client, campaign: Campaign, worker: Worker) -> None:
    client.get(session_url(campaign, worker))
    a = Assignment.objects.get(worker=worker, state="active")
    client.post(submit_url(campaign, worker, a), valid_scores(a))


def _codes_in(html: str) -> set[str]:
    return {code for code in CODES.values() if code in html}


def test_completed_worker_gets_the_completion_code_only(client):
    c = _campaign(tasks_per_worker=1)
    worker = consented(c, platform="link")
    _finish_current_task(client, c, worker)
    html = client.get(session_url(c, worker)).content.decode()
    assert _codes_in(html) == {"DONE42"}


def test_stopped_worker_gets_the_failed_check_code_only(client):
    c = _campaign(tasks_per_worker=1)
    worker = consented(c, platform="prolific", stopped=True)
    html = client.get(session_url(c, worker)).content.decode()
    assert _codes_in(html) == {"FAIL13"}
    assert "https://app.prolific.com/submissions/complete?cc=FAIL13" in html


def test_worker_turned_away_from_a_full_campaign_gets_the_screened_out_code(client):
    c = _campaign(judgements_per_task=1, tasks_per_worker=1)
    first = consented(c, platform="prolific", external_id="FIRST")
    client.get(session_url(c, first))  # holds the only task
    late = consented(c, platform="prolific", external_id="LATE")
    response = client.get(session_url(c, late))
    html = response.content.decode()
    assert response.status_code == 200
    assert _codes_in(html) == {"SCRN77"}
    url = "https://app.prolific.com/submissions/complete?cc=SCRN77"
    assert 'http-equiv="refresh"' not in html  # a button, no timed redirect
    assert f'href="{url}"' in html
    assert not Assignment.objects.filter(worker=late).exists()


def test_worker_arriving_after_every_judgement_is_in_is_screened_out(client):
    c = _campaign(judgements_per_task=1, tasks_per_worker=1)
    first = consented(c, platform="link")
    _finish_current_task(client, c, first)
    late = consented(c, platform="mturk", metadata={"assignment_id": "A7"})
    html = client.get(session_url(c, late)).content.decode()
    assert _codes_in(html) == {"SCRN77"}
    assert 'name="completionCode" value="SCRN77"' in html
    # The worker who finished still reads the completion code, not the screened-out one.
    assert _codes_in(client.get(session_url(c, first)).content.decode()) == {"DONE42"}
