"""A ranking page view sweeps lost runs without beat."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from ranking.models import RankingRun
from tests.ranking.planted import planted_campaign
from tests.ranking.running_runs import _running

pytestmark = pytest.mark.django_db


STRENGTHS = [60.0, 20.0, -20.0, -60.0]


@pytest.fixture
def planted():
    return planted_campaign(strengths=STRENGTHS, n_judgements=40, seed=11, k=4)


def test_a_page_view_sweeps_lost_runs_without_beat(planted, client, settings):
    """The embedded set-up has no beat: looking at the run ends it."""
    campaign, criterion = planted
    settings.RANKING_STALE_AFTER = 600
    lost = _running(campaign, criterion, heartbeat_ago=3600)
    owner = User.objects.create_user("owner")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    client.force_login(owner)
    html = client.get(f"/rankings/{lost.pk}/").content.decode()
    assert "No progress for over 10 min" in html
    assert RankingRun.objects.get(pk=lost.pk).status == "failed"
