"""What the ranking pages say about the stability check is true for the data at hand:
one source for the verdict and its reason, the coverage the rank ranges actually keep,
and a runs suggestion with its uncertainty that is stable across seeds and never above
what the server accepts."""

from __future__ import annotations

import numpy as np
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ranking.exports import runs as exports
from ranking.models import RankingRun
from ranking.selectors.runs import ranking_data_rule
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from ranking.stats._result import summarise_runs
from ranking.stats._stability import cluster_stability
from tests.annotations.designer_data import judged_campaign, users
from tests.ranking.planted import planted_campaign


def _near_the_cut(runs: int, share: float, seed: int):
    """Three systems; in a ``share`` of the runs the second beats the first. With
    ``share`` near the trim share (2.75% at 200 runs, 0.95) the boundary between them
    rests near the cut; the third is far below."""
    rng = np.random.default_rng(seed)
    values = np.tile([1.0, 0.0, -5.0], (runs, 1))
    flip = rng.random(runs) < share
    values[flip, 0], values[flip, 1] = 0.0, 1.0
    return summarise_runs(
        method="test",
        run_values=values,
        confidence=0.95,
        comparisons=[60, 60, 60],
        n_comparisons=90,
        params={},
    )


# 2. One source for the verdict and its reason ------------------------------------------


def _agreeing_but_fragile():
    for seed in range(20):
        check = cluster_stability(_near_the_cut(200, 0.04, seed), rng=np.random.default_rng(0))
        if check.agree and check.fragile.size:
            return check
    raise AssertionError("no seed gave agreeing halves with a fragile boundary")


def test_the_note_gives_the_reason_that_decided():
    check = _agreeing_but_fragile()
    assert not check.stable and check.reasons == ("fragile_boundaries",)
    assert check.note.startswith(
        "Reason: 1 boundary decision(s) rest on rank-range ends within 2 standard errors"
    )
    assert "give the same clusters" in check.note  # true, and not the reason


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


# 3. The coverage the rank ranges actually keep -------------------------------------------


def test_the_note_states_the_coverage_kept_not_only_the_level_asked():
    check = cluster_stability(_near_the_cut(100, 0.0, 0), rng=np.random.default_rng(0))
    assert check.coverage == pytest.approx(0.94) and check.half_coverage == pytest.approx(0.92)
    assert "The rank ranges keep 94 of 100 runs (94%; 95% asked)." in check.note
    assert "ranges keeping 46 of 50, 92%" in check.note


@pytest.mark.django_db
def test_page_api_and_exports_state_the_coverage_kept(client):
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=6)
    run = ranking_run_compute(
        run=ranking_run_create(
            campaign=campaign, criterion=campaign.criteria.get(), queue=False, runs=100
        )
    )
    client.force_login(people["owner"])
    html = client.get(reverse("ranking:run", args=[run.pk])).content.decode()
    assert "the rank ranges keep 94 of 100 runs (94.0%; 95.0% asked)" in html
    api = APIClient()
    api.force_authenticate(people["owner"])
    coverage = api.get(f"/api/rankings/{run.pk}/result/").json()["coverage"]
    assert coverage["runs_kept"] == 94 and coverage["coverage"] == pytest.approx(0.94)
    for fmt in ("table", "latex", "markdown", "provenance"):
        assert "keep 94 of 100 runs" in exports.run_export(run=run, fmt=fmt), fmt


# 4. The runs suggestion: an estimate with its uncertainty -------------------------------


def test_the_suggestion_is_stable_across_seeds():
    """The same boundary (the second system beats the first in 4% of the runs, the cut
    at 2.75%): the old point estimate ran from 400 to 17,200 runs over ten seeds, and
    the interval that replaced it had no upper bound, so its number was only twice the
    runs. Every seed now gives the same answer: no estimate, no number."""
    answers = set()
    for seed in range(10):
        check = cluster_stability(_near_the_cut(200, 0.04, seed), rng=np.random.default_rng(0))
        if check.fragile.size:
            answers.add((check.runs_unknown, check.suggested_runs, check.runs_interval[1]))
    assert answers == {(True, None, None)}


def test_the_runs_interval_never_starts_at_or_below_the_runs_that_failed():
    """Review: thin data, seed 2, "fails at 200 runs ... settle at about 100 to 1,100
    runs". The fewest runs that may settle a fragile boundary is more than the runs
    that did not."""
    checked = 0
    for share in (0.005, 0.01, 0.015, 0.04):
        for seed in range(6):
            check = cluster_stability(_near_the_cut(200, share, seed), rng=np.random.default_rng(0))
            if check.fragile.size:
                checked += 1
                assert check.runs_interval[0] > 200, (share, seed, check.runs_interval)
                assert "about 100 to" not in check.note and "about 200 to" not in check.note
    assert checked >= 10
    bounded = cluster_stability(_near_the_cut(200, 0.005, 0), rng=np.random.default_rng(0))
    assert bounded.runs_interval == (300, 1100)
    assert "They would settle at about 300 to 1,100 runs. Suggested: 400 runs." in bounded.note


def test_the_suggestion_never_exceeds_the_cap():
    result = _near_the_cut(200, 0.005, 0)
    check = cluster_stability(result, rng=np.random.default_rng(0), max_runs=300)
    assert check.fragile.size and check.suggested_runs is not None
    assert check.suggested_runs <= 300
    refused = cluster_stability(result, rng=np.random.default_rng(0), max_runs=150)
    assert refused.suggested_runs is None
    assert "would take more runs than the 150 this server accepts" in refused.note


@pytest.mark.django_db
def test_a_run_suggests_no_more_runs_than_its_campaign_may_ask_for(settings):
    settings.RANKING_MAX_RUN_VALUES = 3 * 250  # three systems: at most 250 runs
    campaign, criterion = planted_campaign(strengths=[20, 0, -20], n_judgements=60, k=3)
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, queue=False, runs=200)
    )
    assert run.status == RankingRun.Status.DONE, run.error
    assert run.stability["max_runs"] == 250
    suggested = run.stability["suggested_runs"]
    assert suggested is None or suggested <= 250


def test_the_note_writes_every_count_in_one_format():
    """Review: one page read "1,900 of 2,000" beside "1900 of 2000". The note writes
    counts with thousands separators throughout."""
    check = cluster_stability(_near_the_cut(2000, 0.03, 0), rng=np.random.default_rng(0))
    assert "The rank ranges keep 1,900 of 2,000 runs" in check.note
    assert "(1,000 runs each, ranges keeping 950 of 1,000" in check.note
    assert "1900" not in check.note and "2000" not in check.note
