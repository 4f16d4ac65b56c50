"""The adaptive design page (ranking/views/adaptive.py): batches shown, designers add one."""

from __future__ import annotations

import pytest

from ranking.models import AdaptiveBatch
from tests.ranking.adaptive_data import _member, adaptive_campaign, judge_all

pytestmark = pytest.mark.django_db


def test_the_page_shows_batches_and_designers_add_one(client, django_user_model):
    campaign = adaptive_campaign()
    judge_all(campaign)
    url = f"/rankings/campaign/{campaign.slug}/adaptive/"
    client.force_login(_member(django_user_model, campaign, "viewer"))
    body = client.get(url).content.decode()
    assert "No batch yet" in body and "Add a batch" not in body
    assert client.post(url, {"criterion": "quality"}).status_code == 403
    client.force_login(_member(django_user_model, campaign, "designer"))
    response = client.post(url, {"criterion": "quality"})
    assert response.status_code == 302
    body = client.get(url).content.decode()
    assert "#1" in body and "manual" in body and "Batch 1 of quality: 20 tasks added." in body
    assert client.post(url, {"criterion": "nope"}).status_code == 302
    assert AdaptiveBatch.objects.count() == 1
    assert "Adaptive design" in client.get(f"/rankings/campaign/{campaign.slug}/").content.decode()


def test_the_page_says_what_stable_means_the_span_included(client, django_user_model):
    """Stable is three equal refits in a row *and* clusters held over a span of
    judgements (ranking.services.adaptive.stable_span): the page says both."""
    campaign = adaptive_campaign()
    client.force_login(_member(django_user_model, campaign, "viewer"))
    body = client.get(f"/rankings/campaign/{campaign.slug}/adaptive/").content.decode()
    # 6 systems, 3 outputs per task: ceil(160 x 6 / 3) = 320 judgements
    assert "3 refits in a row agree and the clusters have held" in body
    assert "shown 160 more times on average (the last 320 judgements)" in body


def test_a_form_sent_twice_adds_one_batch(client, django_user_model):
    """A double click, a browser resending the POST, or a second tab sends the page's form
    again: the form names the latest batch it showed, so the second send adds nothing and
    says why (before, each send added a batch)."""
    campaign = adaptive_campaign()
    judge_all(campaign)
    url = f"/rankings/campaign/{campaign.slug}/adaptive/"
    client.force_login(_member(django_user_model, campaign, "designer"))
    body = client.get(url).content.decode()
    assert '<input type="hidden" name="after" value="0">' in body
    form = {"criterion": "quality", "after": "0"}
    assert client.post(url, form).status_code == 302
    assert client.post(url, form).status_code == 302
    assert AdaptiveBatch.objects.count() == 1
    body = client.get(url).content.decode()
    assert "Batch 1 of quality: 20 tasks added." in body
    assert "No batch was added: quality has 1 batch now, not 0" in body
    assert '<input type="hidden" name="after" value="1">' in body
    assert client.post(url, {"criterion": "quality", "after": "1"}).status_code == 302
    assert list(AdaptiveBatch.objects.values_list("number", flat=True)) == [1, 2]


def test_a_form_without_after_still_adds_a_batch(client, django_user_model):
    """``after`` is the page's guard, not a required field: a POST without it (a script)
    adds a batch as before."""
    campaign = adaptive_campaign()
    judge_all(campaign)
    url = f"/rankings/campaign/{campaign.slug}/adaptive/"
    client.force_login(_member(django_user_model, campaign, "designer"))
    assert client.post(url, {"criterion": "quality"}).status_code == 302
    assert AdaptiveBatch.objects.count() == 1


@pytest.mark.parametrize("after", ["", "x", "-1", "\uff11", "0x1", "0 ", "9" * 40, "5"])
def test_a_form_with_an_unreadable_or_future_after_adds_nothing(client, django_user_model, after):
    """A tampered ``after`` (not a batch number, or a batch that does not exist yet) is
    refused with a message and adds nothing, never a 500."""
    campaign = adaptive_campaign()
    judge_all(campaign)
    url = f"/rankings/campaign/{campaign.slug}/adaptive/"
    client.force_login(_member(django_user_model, campaign, "designer"))
    response = client.post(url, {"criterion": "quality", "after": after}, follow=True)
    assert response.status_code == 200
    body = response.content.decode()
    assert "not a number; no batch was added" in body or "not more" in body
    assert AdaptiveBatch.objects.count() == 0
