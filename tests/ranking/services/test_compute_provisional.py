"""A system seen too seldom is stored as provisional (ranking/services/compute.py), not ranked
first, alike on the page, in the API and in the exports."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from ranking.exports.runs import parse_csv
from ranking.models import RankingRun
from ranking.selectors.data_rule import ranking_data_rule
from ranking.selectors.runs import ranking_run_rows
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.factories import SystemFactory
from tests.ranking.planted import add_judgement, planted_campaign

FORMATS = ("table", "json", "csv", "latex", "markdown")


def _seen_once():
    """Three systems with 300 comparisons each among them, and s3 judged once (one
    judgement of three outputs: 2 comparisons), scored far above the others."""
    campaign, criterion = planted_campaign(strengths=[30, 0, -30], n_judgements=100, k=3)
    SystemFactory(campaign=campaign, label="s3")
    add_judgement(
        campaign=campaign,
        criterion=criterion,
        scores={"s3": 150, "s0": 100, "s1": 90},
        item_key="late",
    )
    owner = User.objects.create_user("owner-provisional")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    return campaign, criterion, owner


def _rank(campaign, criterion, **kwargs) -> RankingRun:
    run = ranking_run_create(campaign=campaign, criterion=criterion, queue=False, **kwargs)
    return ranking_run_compute(run=run)


@pytest.mark.django_db
def test_a_system_seen_once_is_provisional_not_ranked_first(client):
    campaign, criterion, owner = _seen_once()
    run = _rank(campaign, criterion, runs=200, seed=1)
    assert run.status == "done", run.error
    rows = ranking_run_rows(run=run)
    # Before: s3 first with mu 3.8 and a rank range of exactly "1"; s0 and s1 2-3.
    assert [r.system for r in rows] == ["s0", "s1", "s2"]
    assert all(r.rank_range != "1" or r.system == "s0" for r in rows)
    assert run.inputs["provisional"] == [{"system": "s3", "comparisons": 2, "judgements": 1}]
    assert run.inputs["unranked"] == []
    rule = ranking_data_rule(run=run)
    assert rule.provisional == [("s3", 2)] and not rule.met  # no clusters while one waits

    client.force_login(owner)
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert '<tbody class="provisional">' in html
    assert '<td class="num">provisional</td><td>s3</td><td class="num">2</td>' in html
    assert (
        "1 system(s) are provisional, not ranked: fewer than 30 judgements or comparisons "
        "each, in all or with the systems ranked (a system that loses its opponents to this "
        "rule loses their comparisons too; comparisons in all given): s3 (2)"
    ) in html
    assert "computed without them" in html and "Under TrueSkill" in html

    api = APIClient()
    api.force_authenticate(owner)
    result = api.get(f"/api/rankings/{run.pk}/result/").json()
    assert [r["system"] for r in result["rows"]] == ["s0", "s1", "s2"]
    assert result["provisional"] == [{"system": "s3", "comparisons": 2, "judgements": 1}]
    for fmt in FORMATS:
        text = api.get(f"/api/rankings/{run.pk}/export/{fmt}/").content.decode()
        assert "s3" in text and "provisional" in text, fmt
    assert json.loads(api.get(f"/api/rankings/{run.pk}/export/json/").content)["provisional"] == [
        {"system": "s3", "comparisons": 2, "judgements": 1}
    ]
    csv_text = api.get(f"/api/rankings/{run.pk}/export/csv/").content.decode()
    assert [r.system for r in parse_csv(csv_text)] == ["s0", "s1", "s2"]
    assert ["provisional", "", "s3", "", "", "", "", "2", ""] in list(
        csv.reader(io.StringIO(csv_text))
    )


@pytest.mark.django_db
def test_a_system_in_eight_five_way_judgements_is_provisional_not_first_with_certainty():
    """A reviewer's file: 'lucky' in 8 five-way judgements, each time far above the rest,
    has 32 comparisons (over the minimum of 30) but eight judges' looks; it was ranked
    first with a range of exactly "1" and a stable verdict."""
    campaign, criterion = planted_campaign(
        strengths=[40, 20, 0, -20, -40], n_judgements=80, k=5, seed=4
    )
    SystemFactory(campaign=campaign, label="lucky")
    for n in range(8):
        add_judgement(
            campaign=campaign,
            criterion=criterion,
            scores={"lucky": 5000, "s0": 100, "s1": 90, "s2": 80, "s3": 70},
            item_key=f"lucky-{n}",
        )
    run = _rank(campaign, criterion, runs=100, seed=1)
    assert run.status == "done", run.error
    assert "lucky" not in [r.system for r in ranking_run_rows(run=run)]
    (left,) = run.inputs["provisional"]
    assert left == {"system": "lucky", "comparisons": 32, "judgements": 8}
    assert ranking_data_rule(run=run).provisional == [("lucky", 32)]
