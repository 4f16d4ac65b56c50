"""The data rule's line never contradicts the stability note."""

from __future__ import annotations

import pytest

from ranking.selectors.data_rule import ranking_data_rule
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.ranking.planted import planted_campaign
from tests.ranking.stability_data import _agreeing_but_fragile


@pytest.mark.django_db
def test_the_rule_line_never_contradicts_the_note(client):
    """Before: the rule said "two halves of the runs disagree" beside a note saying they
    "give the same clusters"; the failure was a fragile boundary."""
    campaign, criterion = planted_campaign(strengths=[150, 0, -150], n_judgements=60, k=3)
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, queue=False, runs=200)
    )
    check = _agreeing_but_fragile()
    run.stability = check.as_dict()
    run.save(update_fields=["stability"])
    rule = ranking_data_rule(run=run)
    text = " ".join(rule.problems) + " " + rule.no_clusters
    assert "disagree" not in text and "different clusters" not in text
    assert "1 boundary decision(s) rest on rank-range ends" in rule.no_clusters
    assert rule.problems[-1] == (
        "The stability check fails: 1 boundary decision(s) rest on rank-range ends within "
        "2 standard errors of the trim cut."
    )
    # An older stored check (no "reasons"): the reason is read from what it stored.
    run.stability = {"stable": False, "agree": True, "fragile": [0], "z": 2.0}
    run.save(update_fields=["stability"])
    assert "disagree" not in " ".join(ranking_data_rule(run=run).problems)
    assert "1 boundary decision(s)" in ranking_data_rule(run=run).problems[-1]


@pytest.mark.django_db
def test_three_runs_claim_no_clusters_and_no_stable_verdict(client):
    """A reviewer's `rank --runs 1..3`: seven one-system clusters, the rule "met", and the
    page "Stable. Too few runs or systems to judge the stability of the clusters."."""
    from django.contrib.auth.models import User

    campaign, criterion = planted_campaign(strengths=[150, 0, -150], n_judgements=60, k=3)
    owner = User.objects.create_user("owner-few-runs")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, queue=False, runs=3)
    )
    assert run.status == "done", run.error
    rule = ranking_data_rule(run=run)
    assert not rule.met and rule.stable is False
    assert rule.problems[-1].startswith(
        "The stability check fails: 3 runs are too few for rank ranges at 95% confidence"
    )
    assert "rank again with more runs (100 suggested" in rule.no_clusters
    client.force_login(owner)
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert "<strong>Stable.</strong>" not in html and "Not yet stable" in html
    assert 'class="table table-compact no-clusters"' in html
