"""Worker pages: entry, consent, the task page (with and without htmx), completion."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from annotations.access.workers import worker_token
from annotations.models import (
    Assignment,
    Campaign,
    CampaignMembership,
    Criterion,
    Judgement,
    Worker,
)
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    c = CampaignFactory(status=Campaign.Status.LIVE, tasks_per_worker=2, completion_code="DONE42")
    crit = CriterionFactory(campaign=c)
    for _ in range(3):
        task_with_outputs(campaign=c, criterion=crit)
    return c


def session_url(campaign: Campaign, worker: Worker) -> str:
    return reverse("annotations:worker-session", args=[campaign.slug, worker_token(worker)])


def consented(campaign: Campaign, **fields) -> Worker:
    from django.utils import timezone

    return WorkerFactory(campaign=campaign, consented_at=timezone.now(), **fields)


def _identity(html: bytes) -> str:
    found = re.search(rb'name="identity" value="([^"]+)"', html)
    assert found, "the consent page carries no signed identity"
    return found.group(1).decode()


def test_prolific_entry_shows_consent_and_consent_creates_worker(client, campaign):
    url = f"/w/{campaign.slug}/?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9"
    page = client.get(url)
    assert page.status_code == 200 and b"Start" in page.content
    assert Worker.objects.count() == 0
    start = reverse("annotations:worker-start", args=[campaign.slug])
    response = client.post(start, {"agree": "on", "identity": _identity(page.content)})
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
    client.post(start, {"agree": "on", "identity": _identity(first.content)})
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


def test_task_page_shows_mr_as_definition_list_and_outputs_in_display_order(client, campaign):
    worker = consented(campaign)
    html = client.get(session_url(campaign, worker)).content.decode()
    # each fact takes its own direction; a translated value drops the input's lang
    assert '<dt dir="auto">eat type</dt><dd dir="auto">coffee shop</dd>' in html
    assert '<dt dir="auto">name</dt><dd dir="auto" lang="en">Cotto</dd>' in html
    assignment = Assignment.objects.get(worker=worker)
    shown = [int(s) for s in re.findall(r'data-slot="(\d+)"', html)]
    assert shown == assignment.display_order


def test_task_page_query_count_is_pinned(client, campaign, django_assert_num_queries):
    worker = consented(campaign)
    url = session_url(campaign, worker)
    client.get(url)  # first visit hands the task out
    # 7: the hand-out reads a summary of the worker's assignments (which also gives the
    # pages done for the progress bar) and then the page to resume.
    with django_assert_num_queries(7):
        response = client.get(url)
    assert response.status_code == 200


def _submit_url(campaign, worker, assignment):
    return reverse(
        "annotations:worker-submit", args=[campaign.slug, worker_token(worker), assignment.pk]
    )


def test_invalid_submit_without_htmx_renders_full_page_with_inline_errors(client, campaign):
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = Assignment.objects.get(worker=worker)
    response = client.post(_submit_url(campaign, worker, a), {"score_0": "120", "score_1": "abc"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "<html" in html and "Please check your answers" in html
    assert 'value="120"' in html  # what was entered is kept
    assert 'aria-invalid="true"' in html
    assert "data-draft-url=" in html and "js/autosave" in html
    assert Judgement.objects.count() == 0


def test_invalid_submit_with_htmx_returns_the_form_fragment(client, campaign):
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = Assignment.objects.get(worker=worker)
    response = client.post(
        _submit_url(campaign, worker, a),
        {"score_0": "120", "score_1": "-3"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and html.lstrip().startswith("<form")
    assert "whole number" in html and 'value="120"' in html
    # The form shown again keeps autosaving: corrections typed now survive a reload.
    draft = reverse("annotations:worker-draft", args=[campaign.slug, worker_token(worker), a.pk])
    assert f'data-draft-url="{draft}"' in html


def _valid(a):
    return {f"score_{s}": str(100 + 10 * i) for i, s in enumerate(a.display_order)}


def test_valid_submit_with_and_without_htmx_and_double_submit(client, campaign):
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = Assignment.objects.get(worker=worker)
    response = client.post(_submit_url(campaign, worker, a), _valid(a), HTTP_HX_REQUEST="true")
    # the criterion just judged goes along (the next page announces a change of criterion)
    after = f"?after={a.criterion_id}"
    assert response.status_code == 200
    assert response["HX-Redirect"] == session_url(campaign, worker) + after
    again = client.post(_submit_url(campaign, worker, a), _valid(a))
    # The double submit moves on, saying why (?already=1: "already submitted").
    assert again.status_code == 303
    assert again["Location"] == session_url(campaign, worker) + "?already=1"
    assert Judgement.objects.filter(worker=worker).count() == 1
    assert b"Task 2 of 2" in client.get(session_url(campaign, worker)).content


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
            client.post(_submit_url(campaign, worker, a), _valid(a))
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


def test_too_fast_warning_then_confirm(client, campaign):
    campaign.min_seconds_per_task = 60
    campaign.save()
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = Assignment.objects.get(worker=worker)
    warned = client.post(_submit_url(campaign, worker, a), _valid(a), HTTP_HX_REQUEST="true")
    assert b"we expect at least 60" in warned.content and Judgement.objects.count() == 0
    ok = client.post(
        _submit_url(campaign, worker, a),
        {**_valid(a), "acknowledge_too_fast": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert ok.has_header("HX-Redirect")
    assert Judgement.objects.get().too_fast is True


def test_slider_untouched_detected_and_ties_resolved(client):
    c = CampaignFactory(status=Campaign.Status.LIVE)
    crit = CriterionFactory(campaign=c, scale=Criterion.Scale.SLIDER, scale_settings={})
    task_with_outputs(campaign=c, criterion=crit)
    worker = consented(c)
    html = client.get(session_url(c, worker)).content.decode()
    assert 'type="range"' in html and "Same score as" in html
    a = Assignment.objects.get(worker=worker)
    url = _submit_url(c, worker, a)
    untouched = client.post(
        url, {"js": "1", "score_0": "50", "score_1": "70", "score_2": "50", "touched_1": "1"}
    )
    assert untouched.status_code == 400 and b"not moved this slider" in untouched.content
    ok = client.post(
        url,
        {
            "js": "1",
            "score_0": "20",
            "score_1": "70",
            "score_2": "50",
            "touched_0": "1",
            "touched_1": "1",
            "tie_2": "1",
        },
    )
    assert ok.status_code == 303
    scores = dict(Judgement.objects.get().scores.values_list("slot", "score"))
    assert scores == {0: 20.0, 1: 70.0, 2: 70.0}


def test_likert_page_and_submit(client):
    c = CampaignFactory(status=Campaign.Status.LIVE)
    levels = [{"value": v, "label": str(v), "descriptor": f"level {v} words"} for v in (1, 2, 3)]
    crit = CriterionFactory(
        campaign=c,
        scale=Criterion.Scale.LIKERT,
        scale_settings={"levels": levels},
        show_input=False,
    )
    task_with_outputs(campaign=c, criterion=crit)
    worker = consented(c)
    html = client.get(session_url(c, worker)).content.decode()
    assert "level 2 words" in html and 'type="radio"' in html and "The information" not in html
    a = Assignment.objects.get(worker=worker)
    missing = client.post(_submit_url(c, worker, a), {"score_0": "1", "score_1": "3"})
    assert missing.status_code == 400 and b"Choose one of the levels" in missing.content
    assert 'value="3" data-score checked' in missing.content.decode()
    ok = client.post(_submit_url(c, worker, a), {"score_0": "1", "score_1": "3", "score_2": "3"})
    assert ok.status_code == 303


def test_designer_preview_requires_view_permission_and_records_nothing(client, campaign):
    url = reverse("annotations:worker-preview", args=[campaign.slug])
    assert client.get(url).status_code == 302  # to login
    user = get_user_model().objects.create_user("ann", password="pw-123456")
    client.force_login(user)
    assert client.get(url).status_code == 404
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    page = client.get(url)
    assert page.status_code == 200 and b"Nothing you do here is recorded" in page.content
    checked = client.post(
        url, {"score_0": "100", "score_1": "50", "score_2": "200"}, HTTP_HX_REQUEST="true"
    )
    assert b"All answers are valid" in checked.content
    assert Worker.objects.count() == 0 and Assignment.objects.count() == 0


def test_get_of_start_after_a_refused_consent_goes_back_to_the_entry(client, campaign):
    url = f"/w/{campaign.slug}/?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9"
    page = client.get(url)
    start = reverse("annotations:worker-start", args=[campaign.slug])
    refused = client.post(
        f"{start}?PROLIFIC_PID=abc123&STUDY_ID=s1&SESSION_ID=x9",
        {"identity": _identity(page.content)},
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


def test_a_forged_assignment_id_is_refused_as_unknown_not_as_already_submitted(client, campaign):
    worker = consented(campaign)
    other = consented(campaign)
    client.get(session_url(campaign, other))
    theirs = Assignment.objects.get(worker=other)
    client.get(session_url(campaign, worker))
    forged = reverse(
        "annotations:worker-submit", args=[campaign.slug, worker_token(worker), theirs.pk]
    )
    response = client.post(forged, {"score_0": "100"}, follow=True)
    html = response.content.decode()
    assert "not one of your tasks" in html
    assert "already submitted" not in html
    assert Judgement.objects.count() == 0


def test_the_task_page_says_the_time_limit_and_what_happens_at_it(client, campaign):
    Campaign.objects.filter(pk=campaign.pk).update(assignment_timeout_minutes=20)
    worker = consented(campaign)
    html = client.get(session_url(campaign, worker)).content.decode()
    assert "You have 20 minutes for this task." in html
    assert "still recorded if nobody else has taken the task meanwhile" in html


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
