"""A worker's session (``annotations.views.sessions``): entry from Prolific, MTurk or a
link, consent, the session's page, the completion and stop pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.access.workers import worker_token
from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Worker,
)
from tests.annotations.views.worker_pages import (
    consented,
    session_url,
    signed_identity,
    submit_url,
    valid_scores,
)
from tests.factories import CampaignFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db


def test_prolific_entry_shows_consent_and_consent_creates_worker(client, campaign):
    url = f"/w/{campaign.slug}/?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9"
    page = client.get(url)
    assert page.status_code == 200 and b"Start" in page.content
    assert Worker.objects.count() == 0
    start = reverse("annotations:worker-start", args=[campaign.slug])
    response = client.post(start, {"agree": "on", "identity": signed_identity(page.content)})
    worker = Worker.objects.get()
    assert (worker.platform, worker.external_id) == ("prolific", "abc123")
    assert worker.metadata == {"study_id": "s1", "session_id": "x9"}
    assert worker.consented_at is not None
    assert response.status_code == 303 and response["Location"] == session_url(campaign, worker)
    again = client.get(url)
    assert again.status_code == 302 and again["Location"] == session_url(campaign, worker)
    assert Worker.objects.count() == 1


def test_link_entry_keeps_anonymous_worker_in_signed_cookie(client, campaign):
    first = client.get(f"/w/{campaign.slug}/")
    start = reverse("annotations:worker-start", args=[campaign.slug])
    client.post(start, {"agree": "on", "identity": signed_identity(first.content)})
    second = client.get(f"/w/{campaign.slug}/")
    third = client.get(f"/w/{campaign.slug}/")
    worker = Worker.objects.get(platform="link")
    assert second["Location"] == third["Location"] == session_url(campaign, worker)


def test_mturk_preview_records_nothing(client, campaign):
    response = client.get(
        f"/w/{campaign.slug}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1"
        "&turkSubmitTo=https://workersandbox.mturk.com"
    )
    assert response.status_code == 200
    assert b"Accept the HIT" in response.content
    assert Worker.objects.count() == 0 and Assignment.objects.count() == 0


def test_platform_disabled_gives_bad_link_page(client, campaign):
    campaign.accept_prolific = campaign.accept_link = False
    campaign.save()
    response = client.get(f"/w/{campaign.slug}/?PROLIFIC_PID=abc")
    assert response.status_code == 400
    assert b"This link does not work" in response.content
    assert Worker.objects.count() == 0


@pytest.mark.parametrize(
    "status, text", [("paused", b"paused"), ("closed", b"closed"), ("draft", b"not started")]
)
def test_campaign_not_live_pages(client, campaign, status, text):
    Campaign.objects.filter(pk=campaign.pk).update(status=status)
    response = client.get(f"/w/{campaign.slug}/?PROLIFIC_PID=abc")
    assert response.status_code == 200 and text in response.content
    assert Worker.objects.count() == 0


def test_unknown_slug_gets_a_clear_404(client):
    response = client.get("/w/nope/")
    assert response.status_code == 404 and b"cannot find this study" in response.content


def test_bad_token(client, campaign):
    response = client.get(f"/w/{campaign.slug}/s/12:forged/")
    assert response.status_code == 404


def test_consent_then_first_task(client, campaign):
    campaign.consent_text = "We store your scores."
    campaign.save()
    worker = WorkerFactory(campaign=campaign)
    page = client.get(session_url(campaign, worker))
    assert b"We store your scores." in page.content and b"twice as good" in page.content
    assert b"Before task 1 of 2" in page.content  # progress on every page
    consent_url = reverse("annotations:worker-consent", args=[campaign.slug, worker_token(worker)])
    refused = client.post(consent_url, {})
    assert refused.status_code == 400 and b"tick the box" in refused.content
    ok = client.post(consent_url, {"agree": "on"})
    assert ok.status_code == 302
    task_page = client.get(session_url(campaign, worker))
    assert b"Task 1 of 2" in task_page.content
    assert Assignment.objects.filter(worker=worker).count() == 1


def test_completion_redirects_prolific_and_shows_code_to_link_workers(client, campaign):
    for platform in ("prolific", "link", "mturk"):
        worker = consented(
            campaign,
            platform=platform,
            metadata={"turk_submit_to": "https://workersandbox.mturk.com", "assignment_id": "A9"},
        )
        for _ in range(2):
            client.get(session_url(campaign, worker))
            a = Assignment.objects.get(worker=worker, state="active")
            client.post(submit_url(campaign, worker, a), valid_scores(a))
        done = client.get(session_url(campaign, worker))
        assert b"2 tasks done" in done.content
        if platform == "prolific":
            url = "https://app.prolific.com/submissions/complete?cc=DONE42"
            assert done.status_code == 200
            # a button to follow, no timed redirect (axe: meta-refresh)
            assert 'http-equiv="refresh"' not in done.content.decode()
            assert f'href="{url}"' in done.content.decode()
        elif platform == "link":
            assert b"DONE42" in done.content
        else:
            html = done.content.decode()
            assert 'action="https://workersandbox.mturk.com/mturk/externalSubmit"' in html
            assert 'name="assignmentId" value="A9"' in html


def test_full_campaign_page(client):
    c = CampaignFactory(status=Campaign.Status.LIVE, judgements_per_task=1)
    task_with_outputs(campaign=c)
    consented_first = consented(c)
    client.get(session_url(c, consented_first))
    late = consented(c)
    response = client.get(session_url(c, late))
    assert b"All tasks are taken" in response.content


def test_stopped_worker_sees_polite_page_with_failed_code(client, campaign):
    worker = consented(campaign, stopped=True)
    response = client.get(session_url(campaign, worker))
    assert campaign.failed_check_code.encode() in response.content
    assert b"Thank you for your time" in response.content


def test_get_of_start_after_a_refused_consent_goes_back_to_the_entry(client, campaign):
    url = f"/w/{campaign.slug}/?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9"
    page = client.get(url)
    start = reverse("annotations:worker-start", args=[campaign.slug])
    refused = client.post(
        f"{start}?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9",
        {"identity": signed_identity(page.content)},
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    # the form posts to start with the entry's parameters, so a reload leads back there
    assert f'action="{start}?PROLIFIC_PID=abc123&amp;STUDY_ID=s1&amp;SESSION_ID=x9"' in html
    # the unticked box takes the focus (without JavaScript: autofocus), the error beside it
    assert re.search(r'name="agree"[^>]*aria-describedby="agree-error"[^>]*autofocus', html)
    reload = client.get(f"{start}?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9")
    assert reload.status_code == 302
    assert reload["Location"] == url.replace(f"/w/{campaign.slug}/", f"/w/{campaign.slug}/", 1)
    assert client.get(start)["Location"] == f"/w/{campaign.slug}/"


def test_get_of_a_task_or_consent_address_goes_on_to_the_session(client, campaign):
    worker = consented(campaign)
    session = session_url(campaign, worker)
    client.get(session)
    assignment = Assignment.objects.get(worker=worker)
    task = reverse(
        "annotations:worker-submit", args=[campaign.slug, worker_token(worker), assignment.pk]
    )
    response = client.get(task)
    assert response.status_code == 302 and response["Location"] == session
    consent = reverse("annotations:worker-consent", args=[campaign.slug, worker_token(worker)])
    response = client.get(consent)
    assert response.status_code == 302 and response["Location"] == session
    # a forged token is still refused
    assert client.get(task.replace(worker_token(worker), "12:forged")).status_code == 404


def test_consent_page_explains_the_content_checks(client, campaign):
    Criterion.objects.filter(campaign=campaign).update(
        content_checks=["added", "missing", "perfect"]
    )
    html = client.get(f"/w/{campaign.slug}/?PROLIFIC_PID=checks").content.decode()
    explained = html[html.index("data-checks-explained") :]
    for sentence in (
        "It contains information not in the input",
        "It misses information from the input",
        "It reflects the input perfectly",
    ):
        assert sentence in explained
    assert "Tick at least one statement for every text." in explained


def test_the_consent_page_passes_only_what_its_templates_read(client, campaign):
    """The consent page's context comes from access.workers.consent_page, as the
    designer's preview's does: no key that no template reads (the scales and a Likert
    example once were)."""
    page = client.get(f"/w/{campaign.slug}/?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9")
    assert page.status_code == 200
    for read in ("campaign", "form", "progress", "explained", "identity", "consent_action"):
        assert read in page.context, read
    for unread in ("scales", "likert_example", "criteria", "worker", "token"):
        assert unread not in page.context, unread
