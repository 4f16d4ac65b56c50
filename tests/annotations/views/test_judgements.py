"""The task page (shown by the session's page, laid out by ``annotations.forms.judgements``)
and its submit (``annotations.views.judgements``): its content, the submit with and
without htmx, inline errors, each scale."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.access.workers import worker_token
from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Judgement,
)
from tests.annotations.views.worker_pages import consented, session_url, submit_url, valid_scores
from tests.factories import CampaignFactory, CriterionFactory, task_with_outputs

pytestmark = pytest.mark.django_db


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


def test_invalid_submit_without_htmx_renders_full_page_with_inline_errors(client, campaign):
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = Assignment.objects.get(worker=worker)
    response = client.post(submit_url(campaign, worker, a), {"score_0": "120", "score_1": "abc"})
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
        submit_url(campaign, worker, a),
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


def test_valid_submit_with_and_without_htmx_and_double_submit(client, campaign):
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = Assignment.objects.get(worker=worker)
    response = client.post(submit_url(campaign, worker, a), valid_scores(a), HTTP_HX_REQUEST="true")
    # the criterion just judged goes along (the next page announces a change of criterion)
    after = f"?after={a.criterion_id}"
    assert response.status_code == 200
    assert response["HX-Redirect"] == session_url(campaign, worker) + after
    again = client.post(submit_url(campaign, worker, a), valid_scores(a))
    # The double submit moves on, saying why (?already=1: "already submitted").
    assert again.status_code == 303
    assert again["Location"] == session_url(campaign, worker) + "?already=1"
    assert Judgement.objects.filter(worker=worker).count() == 1
    assert b"Task 2 of 2" in client.get(session_url(campaign, worker)).content


def test_too_fast_warning_then_confirm(client, campaign):
    campaign.min_seconds_per_task = 60
    campaign.save()
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = Assignment.objects.get(worker=worker)
    warned = client.post(submit_url(campaign, worker, a), valid_scores(a), HTTP_HX_REQUEST="true")
    assert b"we expect at least 60" in warned.content and Judgement.objects.count() == 0
    ok = client.post(
        submit_url(campaign, worker, a),
        {**valid_scores(a), "acknowledge_too_fast": "1"},
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
    url = submit_url(c, worker, a)
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
    assert "level 2 words" in html and 'type="radio"' in html and "The input" not in html
    a = Assignment.objects.get(worker=worker)
    missing = client.post(submit_url(c, worker, a), {"score_0": "1", "score_1": "3"})
    assert missing.status_code == 400 and b"Choose one of the levels" in missing.content
    assert 'value="3" data-score checked' in missing.content.decode()
    ok = client.post(submit_url(c, worker, a), {"score_0": "1", "score_1": "3", "score_2": "3"})
    assert ok.status_code == 303


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


@pytest.mark.parametrize("address", ["abc", "-1", "99999999999999999999"])
def test_a_task_address_that_is_no_number_gets_the_workers_notice(client, campaign, address):
    """Letters, a sign or too many digits matched no URL: the site's bare 404 (on a
    development server, every URL pattern), not the worker's "not one of your tasks"."""
    worker = consented(campaign)
    base = session_url(campaign, worker)
    for method in (client.get, client.post):
        response = method(f"{base}task/{address}/", follow=True)
        assert response.status_code == 200
        assert "not one of your tasks" in response.content.decode()
    assert Judgement.objects.count() == 0
    # another worker's token with a bad address is refused as a bad link, as before
    assert client.get(f"/w/{campaign.slug}/s/1:forged/task/{address}/").status_code == 404


def test_the_task_page_says_the_time_limit_and_what_happens_at_it(client, campaign):
    Campaign.objects.filter(pk=campaign.pk).update(assignment_timeout_minutes=20)
    worker = consented(campaign)
    html = client.get(session_url(campaign, worker)).content.decode()
    assert "You have 20 minutes for this task." in html
    assert "still recorded if nobody else has taken the task meanwhile" in html
