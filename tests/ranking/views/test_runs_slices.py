"""The slices page and the runs list (ranking/views/runs.py)."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership
from ranking.models import RankingRun
from ranking.services import runs as services
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
    assert client.get(url, {"by": "colour"}).status_code == 400
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


def test_the_runs_list_names_each_runs_slice(client, django_user_model) -> None:
    campaign, criterion = _sliced(20)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    for where in ({}, {"language": "de"}):
        services.ranking_run_create(
            campaign=campaign, criterion=criterion, queue=False, where=where
        )
    client.force_login(user)
    body = client.get(f"/rankings/campaign/{campaign.slug}/").content.decode()
    assert "<td>language=de</td>" in body and "<td>all items</td>" in body
