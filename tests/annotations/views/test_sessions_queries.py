"""A worker's session pins the SQL statement count of its hot requests (entry, consent,
the fetch of a task); the submit's are in test_judgements_queries.py.

A crowd worker's fetch and submit are the requests the site serves most; each statement
costs its compilation as well as its round trip. The counts are exact so that a rise
fails here; lower them when a change saves a statement.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.access.workers import worker_token
from annotations.models import (
    Assignment,
    Worker,
)
from tests.annotations.views.worker_pages import (
    consented,
    four_task_campaign,
    session_url,
    submit_url,
    valid_scores,
)
from tests.factories import WorkerFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_cached_task_bounds")]

# Statements per request kind (set-up 2, a magnitude criterion, three outputs per task).
ENTRY = 3
# A returning worker's entry: the campaign and the worker; the proof (a signed cookie, the
# platform's session id) costs no statement.
ENTRY_RETURNING = 2
# The consent of a new worker: the campaign, then in one transaction the worker's row (none
# yet), the criterion check and the insert inside its savepoint (the consent time set by
# the insert: no update after it). 14 before the statements were prepared and merged.
START = 7
# An existing worker's consent: their session's read and one update (no transaction
# around a single statement). 4 before.
CONSENT = 2
FETCH_NEW = 20
FETCH_NEXT = 19
FETCH_CLAIMED = 7


def test_entry_and_consent_of_a_new_worker(client, django_assert_num_queries):
    campaign = four_task_campaign()
    url = f"/w/{campaign.slug}/?PROLIFIC_PID=p1&STUDY_ID=s1&SESSION_ID=x1"
    with django_assert_num_queries(ENTRY):
        page = client.get(url)
    assert page.status_code == 200
    identity = re.search(rb'name="identity" value="([^"]+)"', page.content)
    assert identity is not None
    start = reverse("annotations:worker-start", args=[campaign.slug])
    with django_assert_num_queries(START):
        response = client.post(start, {"agree": "on", "identity": identity.group(1).decode()})
    assert response.status_code == 303 and Worker.objects.filter(campaign=campaign).count() == 1


@pytest.mark.parametrize("proof", ["cookie", "platform-session"])
def test_entry_of_a_returning_worker(client, django_assert_num_queries, proof):
    campaign = four_task_campaign()
    url = f"/w/{campaign.slug}/?PROLIFIC_PID=p1&STUDY_ID=s1&SESSION_ID=x1"
    identity = re.search(rb'name="identity" value="([^"]+)"', client.get(url).content)
    assert identity is not None
    start = reverse("annotations:worker-start", args=[campaign.slug])
    session = client.post(start, {"agree": "on", "identity": identity.group(1).decode()})
    if proof == "cookie":
        url = f"/w/{campaign.slug}/?PROLIFIC_PID=p1"
    else:
        client.cookies.clear()
    with django_assert_num_queries(ENTRY_RETURNING):
        response = client.get(url)
    assert response.status_code == 302 and response["Location"] == session["Location"]


def test_consent_of_an_existing_worker(client, django_assert_num_queries):
    campaign = four_task_campaign()
    worker = WorkerFactory(campaign=campaign)
    url = reverse("annotations:worker-consent", args=[campaign.slug, worker_token(worker)])
    with django_assert_num_queries(CONSENT):
        response = client.post(url, {"agree": "on"})
    assert response.status_code == 302
    worker.refresh_from_db()
    assert worker.consented_at is not None


def test_fetch_of_a_new_task_then_of_the_claimed_one(client, django_assert_num_queries):
    campaign = four_task_campaign()
    worker = consented(campaign)
    url = session_url(campaign, worker)
    with django_assert_num_queries(FETCH_NEW):
        first = client.get(url)
    assert first.status_code == 200 and b"Task 1 of 3" in first.content
    with django_assert_num_queries(FETCH_CLAIMED):
        again = client.get(url)
    assert again.status_code == 200 and b"Task 1 of 3" in again.content
    assert Assignment.objects.filter(worker=worker).count() == 1


def test_fetch_of_a_second_task_after_a_submit(client, django_assert_num_queries):
    campaign = four_task_campaign()
    worker = consented(campaign)
    url = session_url(campaign, worker)
    client.get(url)
    assignment = Assignment.objects.get(worker=worker)
    client.post(submit_url(campaign, worker, assignment), valid_scores(assignment))
    with django_assert_num_queries(FETCH_NEXT):
        page = client.get(url)
    assert page.status_code == 200 and b"Task 2 of 3" in page.content
