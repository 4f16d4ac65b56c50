"""Autosaved drafts (``annotations.views.drafts``): kept, filled back in after a reload, in
every criterion of a set-up 1 page, and only with the worker's own token."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotations.access.workers import worker_token
from annotations.models import Campaign
from annotations.selectors.judgements import page_assignments
from tests.annotations.setups_data import built
from tests.annotations.views.worker_pages import consented, draft_url, page_lead, session_url
from tests.factories import CampaignFactory, CriterionFactory, task_with_outputs

pytestmark = pytest.mark.django_db


def test_draft_is_saved_and_prefills_the_page_after_a_reload(client):
    campaign = CampaignFactory(status=Campaign.Status.LIVE)
    task_with_outputs(campaign=campaign, criterion=CriterionFactory(campaign=campaign))
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = page_lead(worker)
    saved = client.post(draft_url(campaign, worker, a), {"score_0": "123", "score_2": "45"})
    assert saved.status_code == 204
    html = client.get(session_url(campaign, worker)).content.decode()
    assert re.search(r'name="score_0"[^>]*value="123"', html)
    assert re.search(r'name="score_2"[^>]*value="45"', html)
    assert re.search(r'name="score_1"[^>]*value=""', html)


def test_together_draft_prefills_every_criterion(client):
    campaign = built()
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    lead = page_lead(worker)
    natural = page_assignments(assignment=lead)[1]
    name = f"c{natural.criterion_id}-score_{natural.display_order[0]}"
    assert client.post(draft_url(campaign, worker, lead), {name: "77"}).status_code == 204
    html = client.get(session_url(campaign, worker)).content.decode()
    assert re.search(rf'name="{name}"[^>]*value="77"', html)


def test_draft_needs_the_workers_token(client):
    campaign = CampaignFactory(status=Campaign.Status.LIVE)
    task_with_outputs(campaign=campaign)
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = page_lead(worker)
    other = consented(campaign)
    forged = reverse("annotations:worker-draft", args=[campaign.slug, "1:forged", a.pk])
    assert client.post(forged, {"score_0": "1"}).status_code == 404
    wrong = reverse("annotations:worker-draft", args=[campaign.slug, worker_token(other), a.pk])
    assert client.post(wrong, {"score_0": "1"}).status_code == 404
    a.refresh_from_db()
    assert a.draft == {}


def test_a_submit_refused_for_its_scores_keeps_what_was_entered_as_the_draft(client):
    """The walk-through: after a submit shown again with errors, a reload brought back
    only what autosave had caught before, not what was posted."""
    campaign = CampaignFactory(status=Campaign.Status.LIVE)
    task_with_outputs(campaign=campaign, criterion=CriterionFactory(campaign=campaign))
    worker = consented(campaign)
    client.get(session_url(campaign, worker))
    a = page_lead(worker)
    submit = reverse("annotations:worker-submit", args=[campaign.slug, worker_token(worker), a.pk])
    refused = client.post(submit, {"score_0": "123", "score_1": "abc", "score_2": "45"})
    assert refused.status_code == 400
    html = client.get(session_url(campaign, worker)).content.decode()
    assert re.search(r'name="score_0"[^>]*value="123"', html)
    assert re.search(r'name="score_2"[^>]*value="45"', html)


@pytest.mark.usefixtures("no_cached_task_bounds")
def test_a_draft_is_two_statements_and_a_refusal_says_why(client, django_assert_num_queries):
    """Autosave is a task page's most frequent request (one after each pause in typing):
    the worker read with the token, then one conditional UPDATE (it was a read of the
    assignment, a locking read and an UPDATE in a transaction). Refusals still tell a
    task submitted meanwhile (409) from one that is not the worker's (404)."""
    campaign = CampaignFactory(status=Campaign.Status.LIVE)
    task_with_outputs(campaign=campaign, criterion=CriterionFactory(campaign=campaign))
    worker = consented(campaign)
    other = consented(campaign)
    client.get(session_url(campaign, worker))
    a = page_lead(worker)
    with django_assert_num_queries(2):
        saved = client.post(draft_url(campaign, worker, a), {"score_0": "123"})
    assert saved.status_code == 204
    a.refresh_from_db()
    assert a.draft == {"score_0": "123"}
    assert client.post(draft_url(campaign, other, a), {"score_0": "9"}).status_code == 404
    a.state = a.State.SUBMITTED
    a.save(update_fields=["state"])
    refused = client.post(draft_url(campaign, worker, a), {"score_0": "7"})
    assert refused.status_code == 409 and b"already submitted" in refused.content
    a.refresh_from_db()
    assert a.draft == {"score_0": "123"}
