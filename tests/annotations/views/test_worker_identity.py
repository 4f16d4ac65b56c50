"""Worker identity: link cookies cannot be forged, a returning worker resumes, MTurk stop page."""

from __future__ import annotations

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotations.models import Assignment, Campaign, Worker
from annotations.views.worker import worker_token
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    c = CampaignFactory(status=Campaign.Status.LIVE, tasks_per_worker=2)
    crit = CriterionFactory(campaign=c)
    for _ in range(3):
        task_with_outputs(campaign=c, criterion=crit)
    return c


def _cookie_name(campaign: Campaign) -> str:
    return f"hew_{campaign.pk}"


def _enter(client: Client, campaign: Campaign) -> str:
    response = client.get(f"/w/{campaign.slug}/")
    assert response.status_code == 302
    return response["Location"]


def test_link_worker_keeps_identity_with_the_cookie_it_was_given(campaign):
    alice = Client()
    first = _enter(alice, campaign)
    assert _enter(alice, campaign) == first
    assert Worker.objects.filter(platform="link").count() == 1


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda signed, raw, name: raw, id="unsigned-id"),
        pytest.param(
            lambda signed, raw, name: signed[:-1] + ("A" if signed[-1] != "A" else "B"),
            id="tampered-signature",
        ),
        pytest.param(lambda signed, raw, name: signed.replace(raw, raw[::-1]), id="swapped-id"),
        pytest.param(
            lambda signed, raw, name: signing.get_cookie_signer(salt=name + "other").sign(raw),
            id="other-salt",
        ),
        pytest.param(
            lambda signed, raw, name: signing.Signer(salt="humaneval.worker.session").sign(raw),
            id="session-token-signer",
        ),
    ],
)
def test_forged_link_cookie_gives_a_new_anonymous_identity(campaign, forge):
    alice = Client()
    alice_url = _enter(alice, campaign)
    alice_worker = Worker.objects.get(platform="link")
    name = _cookie_name(campaign)
    signed = alice.cookies[name].value

    mallory = Client()
    forged = forge(signed, alice_worker.external_id, name)
    assert forged != signed
    mallory.cookies[name] = forged
    response = mallory.get(f"/w/{campaign.slug}/")

    assert response.status_code == 302
    assert response["Location"] != alice_url
    assert Worker.objects.filter(platform="link").count() == 2
    mallory_worker = Worker.objects.exclude(pk=alice_worker.pk).get()
    assert mallory_worker.external_id != alice_worker.external_id
    # The forged cookie was replaced by a valid one: the new identity sticks.
    assert response.cookies[name].value not in (forged, signed)
    assert _enter(mallory, campaign) == response["Location"]
    assert Worker.objects.filter(platform="link").count() == 2


def test_forged_session_token_is_refused(campaign):
    worker = WorkerFactory(campaign=campaign, consented_at=timezone.now())
    token = worker_token(worker)
    other_pk = str(worker.pk + 1)
    forged = other_pk + token[len(str(worker.pk)) :]
    response = Client().get(reverse("annotations:worker-session", args=[campaign.slug, forged]))
    assert response.status_code == 404
    assert b"This link does not work" in response.content
    assert Assignment.objects.count() == 0


def test_token_of_another_campaign_is_refused(campaign):
    other = CampaignFactory(status=Campaign.Status.LIVE)
    worker = WorkerFactory(campaign=other, consented_at=timezone.now())
    url = reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])
    assert Client().get(url).status_code == 404


def test_prolific_worker_in_another_browser_resumes_the_same_assignment(campaign):
    entry = f"/w/{campaign.slug}/?PROLIFIC_PID=pid-7&STUDY_ID=s&SESSION_ID=x"
    first_browser, second_browser = Client(), Client()
    session = first_browser.get(entry)["Location"]
    first_browser.post(f"{session}consent/", {"agree": "on"})
    page_one = first_browser.get(session)
    assignment = Assignment.objects.get()
    assert b"Task 1 of 2" in page_one.content

    # Another browser, no cookies: the same identity from Prolific's parameters.
    assert second_browser.get(entry)["Location"] == session
    page_two = second_browser.get(session)
    assert b"Task 1 of 2" in page_two.content
    action = reverse(
        "annotations:worker-submit", args=[campaign.slug, session.split("/")[4], assignment.pk]
    )
    assert f'action="{action}"'.encode() in page_two.content
    assert Assignment.objects.count() == 1
    assert Worker.objects.count() == 1


def test_stopped_mturk_worker_can_submit_the_hit_with_the_failed_check_code(campaign):
    worker = WorkerFactory(
        campaign=campaign,
        platform="mturk",
        consented_at=timezone.now(),
        stopped=True,
        metadata={"assignment_id": "A7", "turk_submit_to": "https://workersandbox.mturk.com"},
    )
    html = (
        Client()
        .get(reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)]))
        .content.decode()
    )
    assert 'action="https://workersandbox.mturk.com/mturk/externalSubmit"' in html
    assert 'name="assignmentId" value="A7"' in html
    assert f'name="completionCode" value="{campaign.failed_check_code}"' in html
    assert campaign.completion_code not in html


def test_mturk_submit_url_never_points_outside_mturk(campaign):
    worker = WorkerFactory(
        campaign=campaign,
        platform="mturk",
        consented_at=timezone.now(),
        stopped=True,
        metadata={"assignment_id": "A7", "turk_submit_to": "https://evil.example.com"},
    )
    html = (
        Client()
        .get(reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)]))
        .content.decode()
    )
    assert 'action="https://www.mturk.com/mturk/externalSubmit"' in html
    assert "evil.example.com" not in html


@pytest.mark.parametrize(
    "query",
    [
        "PROLIFIC_PID=p1&STUDY_ID=s",
        "workerId=W1&assignmentId=A1&hitId=H1",
        "assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1",
    ],
)
def test_platform_links_into_a_link_only_campaign_record_nothing(campaign, query):
    Campaign.objects.filter(pk=campaign.pk).update(accept_prolific=False, accept_mturk=False)
    response = Client().get(f"/w/{campaign.slug}/?{query}")
    assert response.status_code == 400
    assert b"This link does not work" in response.content
    assert Worker.objects.count() == 0
