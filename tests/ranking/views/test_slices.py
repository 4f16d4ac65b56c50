"""The slices page (ranking/views/slices.py): runs side by side, the missing ones
started, the cap on active runs said, an unknown attribute refused."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership
from ranking.models import RankingRun
from tests.ranking.sliced_campaign import _sliced

pytestmark = pytest.mark.django_db


def test_the_slices_page_shows_runs_side_by_side_and_starts_the_missing(
    client, django_user_model, django_capture_on_commit_callbacks
) -> None:
    campaign, criterion = _sliced()
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    url = f"/rankings/campaign/{campaign.slug}/slices/"
    page = client.get(url, {"criterion": criterion.name, "by": "challenge_set"})
    assert page.status_code == 200 and b"Rank the missing slices" in page.content
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"criterion": criterion.name, "by": "challenge_set"})
    assert response.status_code == 302
    assert RankingRun.objects.count() == 3  # all items, a and b (eager Celery computes them)
    page = client.get(url, {"criterion": criterion.name, "by": "challenge_set"})
    body = page.content.decode()
    assert "challenge_set=a" in body and "challenge_set=b" in body and "all items" in body
    assert "Rank the missing slices" not in body
    unknown = client.get(url, {"by": "colour"})
    assert unknown.status_code == 400
    assert (
        "No item of this campaign has the attribute &#x27;colour&#x27;." in unknown.content.decode()
    )
    language = client.get(url, {"criterion": criterion.name, "by": "language"})
    assert language.status_code == 200 and b"Rank the missing slices" in language.content


def test_the_cap_on_running_runs_says_what_was_started_and_what_waits(
    client, django_user_model, settings
) -> None:
    settings.RANKING_MAX_ACTIVE_RUNS_PER_USER = 2
    campaign, criterion = _sliced()
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    url = f"/rankings/campaign/{campaign.slug}/slices/"
    # The runs stay queued (their dispatch waits for a commit that a test never makes).
    response = client.post(url, {"criterion": criterion.name, "by": "challenge_set"}, follow=True)
    body = response.content.decode()
    assert RankingRun.objects.count() == 2
    assert "2 ranking run(s) started" in body
    assert "1 slice(s) not started yet" in body and "Press the button again" in body


def test_every_slice_ranked_already_is_said_and_starts_nothing(
    client, django_user_model, django_capture_on_commit_callbacks
) -> None:
    campaign, criterion = _sliced(20)
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    url = f"/rankings/campaign/{campaign.slug}/slices/"
    choice = {"criterion": criterion.name, "by": "challenge_set"}
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, choice)
    before = RankingRun.objects.count()
    response = client.post(url, choice, follow=True)
    assert RankingRun.objects.count() == before
    assert "Every slice already has a finished run." in response.content.decode()


def test_a_viewer_sees_the_slices_but_cannot_start_runs(client, django_user_model) -> None:
    campaign, criterion = _sliced(20)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    url = f"/rankings/campaign/{campaign.slug}/slices/"
    page = client.get(url, {"criterion": criterion.name, "by": "challenge_set"})
    assert page.status_code == 200 and b"Rank the missing slices" not in page.content
    refused = client.post(url, {"criterion": criterion.name, "by": "challenge_set"})
    assert refused.status_code == 403 and not RankingRun.objects.exists()
