"""The last page says when the submit that led to it recorded nothing: a second tab's
answer to the last task, already submitted in the first, was thrown away while the page
said only "Your answers are saved" (mid-session, the next task's page said so)."""

from __future__ import annotations

import pytest

from annotations.models import Assignment, Judgement
from tests.annotations.views.worker_pages import consented, session_url, submit_url, valid_scores

pytestmark = pytest.mark.django_db


def _to_the_last_task(client, campaign):
    worker = consented(campaign)
    for _ in range(campaign.tasks_per_worker - 1):
        client.get(session_url(campaign, worker))
        a = Assignment.objects.get(worker=worker, state=Assignment.State.ACTIVE)
        client.post(submit_url(campaign, worker, a), valid_scores(a))
    client.get(session_url(campaign, worker))
    return worker, Assignment.objects.get(worker=worker, state=Assignment.State.ACTIVE)


def test_a_second_tabs_submit_of_the_last_task_says_it_was_not_recorded(client, campaign):
    worker, last = _to_the_last_task(client, campaign)
    first = client.post(submit_url(campaign, worker, last), valid_scores(last))
    plain = client.get(first["Location"]).content.decode()
    assert "Thank you, you are done" in plain and "not recorded again" not in plain
    # The other tab, still showing the last task, submits other answers.
    stale = client.post(submit_url(campaign, worker, last), valid_scores(last))
    assert stale.status_code == 303 and stale["Location"].endswith("?already=1")
    page = client.get(stale["Location"]).content.decode()
    assert "Thank you, you are done" in page
    assert "so this answer was not recorded again" in page
    assert "The answers submitted before it are saved" in page
    assert Judgement.objects.filter(worker=worker).count() == campaign.tasks_per_worker


def test_an_unknown_address_at_the_end_says_nothing_was_recorded(client, campaign):
    worker, last = _to_the_last_task(client, campaign)
    client.post(submit_url(campaign, worker, last), valid_scores(last))
    page = client.get(session_url(campaign, worker) + "?unknown=1").content.decode()
    assert "Thank you, you are done" in page and "nothing was recorded from it" in page
    assert "Here is your current task" not in page
