"""On data the minimum-data rule rejects, the run gives no stability verdict: the API's
``stability.stable`` is null and the ``rank`` command says "not judged", as the page
shows none. The split-half check itself passed (three judgements rank three systems the
same way in both halves), and both used to report it as a pass."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from annotations.models import CampaignMembership
from ranking.models import RankingRun
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.annotations.designer_data import add_member
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def _thin():
    campaign, criterion = planted_campaign(strengths=[0, 60, 120], n_judgements=3, k=3)
    return campaign, criterion


def test_the_api_gives_no_verdict_on_thin_data_and_keeps_it_on_enough():
    campaign, criterion = _thin()
    owner = User.objects.create(username="thin-owner")
    add_member(campaign, owner, CampaignMembership.Role.OWNER)
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, runs=200, queue=False)
    )
    assert run.status == "done" and run.stability["stable"] is True  # the check itself
    client = APIClient()
    client.force_authenticate(owner)
    stability = client.get(f"/api/rankings/{run.pk}/").json()["stability"]
    assert stability["stable"] is None
    assert stability["note"].startswith("Not judged: the data do not meet the minimum-data rule")
    assert client.get(f"/api/rankings/{run.pk}/result/").json()["data_rule"]["met"] is False
    listed = client.get(f"/api/campaigns/{campaign.slug}/rankings/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [r["stability"]["stable"] for r in rows] == [None]

    enough, crit = planted_campaign(strengths=[0, 60, 120], n_judgements=60, k=3, seed=2)
    add_member(enough, owner, CampaignMembership.Role.OWNER)
    good = ranking_run_compute(
        run=ranking_run_create(campaign=enough, criterion=crit, runs=200, queue=False)
    )
    assert client.get(f"/api/rankings/{good.pk}/").json()["stability"]["stable"] is True


def test_a_failed_check_on_thin_data_gives_no_verdict_either():
    """At 20 runs the same data failed the check ("too few runs"), and the API and the
    command advised more runs, which cannot help three judgements."""
    campaign, criterion = _thin()
    owner = User.objects.create(username="thin-owner-2")
    add_member(campaign, owner, CampaignMembership.Role.OWNER)
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, runs=20, queue=False)
    )
    assert run.stability["stable"] is False  # the check itself
    client = APIClient()
    client.force_authenticate(owner)
    assert client.get(f"/api/rankings/{run.pk}/").json()["stability"]["stable"] is None
    out = StringIO()
    call_command(
        "rank", campaign.slug, "--criterion", criterion.name, "--runs", "20",
        stdout=out, stderr=StringIO(),
    )  # fmt: skip
    assert "Stability: not judged" in out.getvalue()
    assert "more runs" not in out.getvalue().split("Stability:")[1]


def test_the_rank_command_says_not_judged_on_thin_data():
    campaign, criterion = _thin()
    out = StringIO()
    call_command(
        "rank", campaign.slug, "--criterion", criterion.name, "--runs", "200",
        stdout=out, stderr=StringIO(),
    )  # fmt: skip
    text = out.getvalue()
    assert RankingRun.objects.get().stability["stable"] is True
    assert "Stability: not judged: the data do not meet the minimum-data rule" in text
    assert "give the same clusters" not in text


def test_the_list_reads_its_runs_data_rules_in_one_query():
    """The list withholds the verdict run by run, as above, but reads every finished
    run's counts in one query: four runs ask no more than one did (it was one query per
    run)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    campaign, criterion = _thin()
    owner = User.objects.create(username="thin-owner-list")
    add_member(campaign, owner, CampaignMembership.Role.OWNER)
    client = APIClient()
    client.force_authenticate(owner)
    url = f"/api/campaigns/{campaign.slug}/rankings/"

    def listed() -> tuple[int, list[object]]:
        with CaptureQueriesContext(connection) as queries:
            rows = client.get(url).json()["results"]
        return len(queries), [r["stability"]["stable"] for r in rows]

    for seed in (1, 2, 3, 4):
        ranking_run_compute(
            run=ranking_run_create(
                campaign=campaign, criterion=criterion, runs=200, seed=seed, queue=False
            )
        )
        if seed == 1:
            one = listed()
    four = listed()
    assert one[1] == [None] and four[1] == [None] * 4
    assert four[0] == one[0], (one[0], four[0])
