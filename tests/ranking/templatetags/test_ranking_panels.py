"""The ranking panel of the campaign page (``{% campaign_ranking_runs campaign %}``):
annotations renders it by name and never imports ranking."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse

from annotations.models import CampaignMembership
from ranking.models import RankingRun
from tests.annotations.designer_data import add_member, judged_campaign, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=2)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    return people, campaign


def _panel(campaign, **context) -> str:
    template = Template("{% load ranking_panels %}{% campaign_ranking_runs campaign %}")
    return template.render(Context({"campaign": campaign, **context}))


def test_no_runs_yet(world):
    _people, campaign = world
    html = _panel(campaign, can_design=True)
    assert "No ranking runs yet." in html
    assert f'href="{reverse("ranking:campaign-runs", args=[campaign.slug])}"' in html
    assert "Start a ranking run" in html
    assert "All runs" in _panel(campaign) and "Start a ranking run" not in _panel(campaign)


def test_the_latest_ten_runs_newest_first_with_their_status(world):
    _people, campaign = world
    criterion = campaign.criteria.get()
    runs = [
        RankingRun.objects.create(campaign=campaign, criterion=criterion, status="done")
        for _ in range(11)
    ]
    html = _panel(campaign)
    assert html.count("<li>") == 10
    assert f'href="{reverse("ranking:run", args=[runs[-1].pk])}"' in html
    assert f">#{runs[0].pk} " not in html  # the oldest is left out
    assert f"#{runs[-1].pk} {criterion.name} · wmt14" in html
    assert '<span class="badge badge-run-done">Done</span>' in html


def test_the_campaign_page_shows_the_panel(client, world):
    people, campaign = world
    run = RankingRun.objects.create(campaign=campaign, criterion=campaign.criteria.get())
    url = reverse("annotations:designer-campaign", args=[campaign.slug])
    client.force_login(people["owner"])
    page = client.get(url).content.decode()
    assert 'id="h-rank"' in page and f'href="{reverse("ranking:run", args=[run.pk])}"' in page
    assert "Start a ranking run" in page
    client.force_login(people["viewer"])
    page = client.get(url).content.decode()
    assert "All runs" in page and "Start a ranking run" not in page
