"""Ranking pages as organizers move through them: back to the runs, a one-click rerun
when a result is not yet stable (designers only), the Rankings tab stays marked."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotations.models import CampaignMembership
from ranking.models import RankingRun
from tests.annotations.designer_data import add_member, judged_campaign, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def unstable_run():
    people = users()
    campaign = judged_campaign(owner=people["owner"])
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    run = RankingRun.objects.create(
        campaign=campaign,
        criterion=campaign.criteria.get(),
        runs=200,
        seed=5,
        status=RankingRun.Status.DONE,
        progress=1.0,
        # As ranking.stats stores its split-half check: the halves agree, one boundary is fragile.
        stability={
            "stable": False,
            "agree": True,
            "fragile": [2],
            "note": "One boundary rests near the cut.",
            "suggested_runs": 800,
        },
    )
    return people, campaign, run


def test_unstable_run_offers_a_rerun_with_the_suggested_runs(client, unstable_run):
    people, campaign, run = unstable_run
    client.force_login(people["owner"])
    html = client.get(reverse("ranking:run", args=[run.pk])).content.decode()
    assert "Run again with 800 runs" in html
    assert f'action="{reverse("ranking:campaign-runs", args=[campaign.slug])}"' in html
    for name, value in (("runs", "800"), ("seed", "5"), ("method", "wmt14")):
        assert f'name="{name}" value="{value}"' in html
    assert f'href="{reverse("ranking:campaign-runs", args=[campaign.slug])}" aria-current' in html
    assert "you are owner" in html


def test_viewers_and_stable_runs_get_no_rerun(client, unstable_run):
    people, _campaign, run = unstable_run
    client.force_login(people["viewer"])
    html = client.get(reverse("ranking:run", args=[run.pk])).content.decode()
    assert "Not yet stable." in html and "Run again" not in html
    client.force_login(people["owner"])
    RankingRun.objects.filter(pk=run.pk).update(
        stability={
            "stable": True,
            "agree": True,
            "fragile": [],
            "note": "Halves agree.",
            "suggested_runs": 200,
        }
    )
    html = client.get(reverse("ranking:run", args=[run.pk])).content.decode()
    assert (
        "<strong>Stable.</strong>" in html and "Run again" not in html and "Suggested" not in html
    )


def test_run_form_explains_its_fields(client, unstable_run):
    people, campaign, _run = unstable_run
    client.force_login(people["owner"])
    html = client.get(reverse("ranking:campaign-runs", args=[campaign.slug])).content.decode()
    assert "The same seed gives the same result." in html
    assert "rank ranges and of the significance clusters" in html


@pytest.mark.parametrize(
    ("stability", "expected"),
    [
        ({}, None),
        ({"stable": True}, True),
        ({"stable": False}, False),
    ],
)
def test_run_is_stable_reads_the_stored_check(stability, expected):
    from ranking.views.runs import run_is_stable

    assert run_is_stable(RankingRun(stability=stability)) is expected
