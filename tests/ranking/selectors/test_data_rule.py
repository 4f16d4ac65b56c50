"""Honest results on thin data (the data rule, ranking/selectors/data_rule.py): unranked
systems are listed, clusters and the stability verdict only under the minimum-data rule,
alike on the page, in the API and in every export."""

from __future__ import annotations

import csv
import io
import json

import pytest
from rest_framework.test import APIClient

from ranking.exports.runs import parse_csv
from ranking.selectors.data_rule import ranking_data_rule
from tests.factories import SystemFactory
from tests.ranking.planted import planted_campaign
from tests.ranking.ranked_runs import _export, _owned, _rank

pytestmark = pytest.mark.django_db


FORMATS = ("table", "json", "csv", "latex", "markdown")


def _clusters_everywhere(client, api, run) -> dict[str, list[int | None]]:
    """Each system's cluster (in value order) as every machine-readable place gives it:
    the JSON and CSV exports, the API's result, and the means table's JSON export."""
    json_rows = json.loads(_export(api, run, "json"))["ranking"]
    result = api.get(f"/api/rankings/{run.pk}/result/").json()["rows"]
    means = api.get(f"/api/campaigns/{run.campaign.slug}/means/").json()
    [criterion] = means["criteria"]
    return {
        "json": [r["cluster"] for r in json_rows],
        "csv": [r.cluster for r in parse_csv(_export(api, run, "csv"))],
        "api": [r["cluster"] for r in result],
        "means": [
            row["cells"]["all"]["cluster"]
            for row in sorted(criterion["systems"], key=lambda r: r["system"])
        ],
    }


def test_two_judgements_give_no_clusters_and_no_stability_verdict(client):
    """What the page claimed before: significance clusters from two judgements."""
    campaign, criterion = planted_campaign(strengths=[60, 20, -20, -60], n_judgements=2, k=4)
    client.force_login(_owned(campaign))
    run = _rank(campaign, criterion, runs=50, seed=1)
    assert run.status == "done" and run.n_judgements == 2
    rule = ranking_data_rule(run=run)
    assert not rule.met and not rule.enough_comparisons
    assert [n for _, n in rule.thin_systems] == [6, 6, 6, 6]  # 2 judgements x 3 comparisons
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert "Too little data for clusters" in html
    assert (
        "4 system(s) have fewer than 30 judgements or comparisons: s0 (6 comparisons, 2 "
        "judgements), s1 (6 comparisons, 2 judgements), s2 (6 comparisons, 2 judgements), "
        "s3 (6 comparisons, 2 judgements)."
    ) in html
    assert "at least 30 comparisons, in as many judgements" in html  # the rule, stated
    assert (
        'class="table table-compact clusters"' not in html
        and '<th scope="col" class="num">Cluster</th>' not in html
    )
    assert "<strong>Stable.</strong>" not in html and "Not yet stable" not in html
    for label in ("s0", "s1", "s2", "s3"):  # the values are still shown
        assert f"<td>{label}</td>" in html
    api = APIClient()
    api.force_authenticate(campaign.owner)
    result = api.get(f"/api/rankings/{run.pk}/result/").json()
    assert result["data_rule"]["met"] is False and result["data_rule"]["min_comparisons"] == 30
    latex = _export(api, run, "latex")
    assert latex.count(r"\midrule") == 1  # only under the header: no rules between clusters
    assert (
        "\\par{\\footnotesize No clusters: Too few comparisons: 4 system(s) have fewer than 30 "
        "judgements or comparisons (RANKING\\_MIN\\_COMPARISONS); collect more judgements for them"
    ) in latex
    # Thin rows carry the page's mark in every export read as text (only the page did),
    # and LaTeX prints its caveats rather than hiding them in comments.
    assert "s0\\textsuperscript{\\dag}" in latex
    assert "\\par{\\footnotesize \\textsuperscript{\\dag} fewer than 30" in latex
    assert "| s0 \u2020 |" in _export(api, run, "markdown")
    table = _export(api, run, "table")
    assert "s0 \u2020" in table and "\u2020 fewer than 30 judgements or comparisons." in table
    assert result["data_rule"]["thin"] == ["s0", "s1", "s2", "s3"]
    # The reasons are said once, in the box above the table; rows carry a mark it explains.
    assert "In order of value; no clusters (the reasons are above)." in html
    assert html.count("(RANKING_MIN_COMPARISONS)") == 0 and html.count("have fewer than 30") == 1
    assert html.count("marks a system with fewer than 30 judgements or comparisons") == 1
    assert html.count('class="thin-mark"') == 4
    assert html.count('<span class="muted small">(few comparisons)</span>') == 0
    markdown = _export(api, run, "markdown").splitlines()
    assert all(line.startswith("|  |") for line in markdown if "| s" in line)  # no cluster no.
    assert json.loads(_export(api, run, "json"))["data_rule"]["met"] is False
    # No machine-readable place claims the clusters the pages withhold.
    assert _clusters_everywhere(client, api, run) == {
        where: [None] * 4 for where in ("json", "csv", "api", "means")
    }
    means = client.get(f"/rankings/campaign/{campaign.slug}/means/").content.decode()
    assert "n=2 · rank 2-3" in means and "· cluster" not in means
    # Magnitude means are geometric: the page says so.
    assert "data-magnitude-note" in means and "these are geometric means" in means


def test_enough_comparisons_and_a_stable_split_show_clusters(client):
    campaign, criterion = planted_campaign(
        strengths=[150, 0, -150], n_judgements=60, seed=3, k=3, noise=5
    )
    client.force_login(_owned(campaign))
    run = _rank(campaign, criterion, runs=200, seed=1)
    rule = ranking_data_rule(run=run)
    assert rule.enough_comparisons and run.stability["stable"] is True and rule.met
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert 'class="table table-compact clusters"' in html and "<strong>Stable.</strong>" in html
    assert "Too little data" not in html
    api = APIClient()
    api.force_authenticate(campaign.owner)
    clusters = _clusters_everywhere(client, api, run)
    assert clusters["json"] == clusters["csv"] == clusters["api"] == [1, 2, 3]
    assert sorted(c or 0 for c in clusters["means"]) == [1, 2, 3]
    means = client.get(f"/rankings/campaign/{campaign.slug}/means/").content.decode()
    assert "· cluster 1" in means


def test_a_failing_split_half_check_is_named_as_the_reason_for_no_clusters(client):
    """Enough comparisons, but the split-half check fails (as E2E naturalness at 200
    runs): every caption names the check and suggests more runs, not more data."""
    campaign, criterion = planted_campaign(
        strengths=[150, 0, -150], n_judgements=60, seed=3, k=3, noise=5
    )
    client.force_login(_owned(campaign))
    run = _rank(campaign, criterion, runs=200, seed=1)
    # As ranking.stats stores a failing check: the halves disagree, 700 runs suggested.
    run.stability = {
        **run.stability,
        "stable": False,
        "reasons": ["halves_disagree"],
        "agree": False,
        "suggested_runs": 700,
        "runs_interval": [400, None],
    }
    run.save(update_fields=["stability"])
    rule = ranking_data_rule(run=run)
    assert rule.enough_comparisons and not rule.unranked and not rule.met
    reason = (
        "The stability check fails at 200 runs (two random halves of the runs give "
        "different clusters); rank again with more runs (700 suggested; the runs needed: "
        "400 at the fewest, no upper bound known)."
    )
    assert rule.no_clusters == reason
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert f"In order of value; no clusters. {reason} Range:" in html
    assert "Too little data" not in html and "too little data" not in html
    api = APIClient()
    api.force_authenticate(campaign.owner)
    assert f"(No clusters: {reason} See the minimum-data rule below.)" in _export(api, run, "table")
    assert "\\par{\\footnotesize No clusters: The stability check fails at 200 runs" in _export(
        api, run, "latex"
    )
    assert json.loads(_export(api, run, "json"))["data_rule"]["no_clusters"] == reason
    assert api.get(f"/api/rankings/{run.pk}/result/").json()["data_rule"]["no_clusters"] == reason
    plot = client.get(f"/rankings/{run.pk}/plot.svg").content
    assert b"no clusters (stability check fails at 200 runs)" in plot


def test_systems_without_comparisons_are_listed_as_unranked_not_dropped(client):
    campaign, criterion = planted_campaign(strengths=[60, 20, -20, -60], n_judgements=40, k=4)
    SystemFactory(campaign=campaign, label="zeta")  # uploaded, never judged
    client.force_login(_owned(campaign))
    run = _rank(campaign, criterion, runs=30, seed=2)
    assert run.status == "done", run.error
    assert run.inputs["unranked"] == ["zeta"] and run.inputs["systems_ranked"] == 4
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert "<td>zeta</td>" in html and "Unranked: zeta" in html
    assert "1 system(s) have no comparisons at all and are unranked: zeta." in html
    api = APIClient()
    api.force_authenticate(campaign.owner)
    assert api.get(f"/api/rankings/{run.pk}/result/").json()["unranked"] == ["zeta"]
    for fmt in FORMATS:
        assert "zeta" in _export(api, run, fmt), fmt
    rows = list(csv.reader(io.StringIO(_export(api, run, "csv"))))
    assert ["unranked", "", "zeta", "", "", "", "", "0", ""] in rows


def test_groups_never_compared_are_named_and_withhold_clusters():
    """Under any method, two groups never compared with each other (directly or through
    others) have values and ranks that say nothing across groups: the rule names them."""
    from ranking.selectors.data_rule import DataRule

    rule = DataRule(
        min_comparisons=30,
        thin_systems=[],
        unranked=[],
        stable=True,
        separation=[["a", "b"], ["c", "d"]],
        separation_compared=False,
    )
    assert not rule.met and not rule.enough_data
    assert rule.problems == [
        "The systems fall into 2 groups that were never compared with each other, directly "
        "or through other systems: a, b | c, d. Values and ranks across groups say nothing "
        "about which is better; collect judgements that show systems of different groups "
        "together."
    ]
    assert rule.no_clusters_short == "groups never compared"
    assert rule.no_clusters.startswith("Groups never compared: some systems were never shown")


def test_a_thin_system_is_named_with_the_counts_below_the_minimum():
    """A reviewer read "fewer than 30 judgements or comparisons (comparisons given): sysA
    (28), sysB (34), ...": four of the five figures were above 30, and the count that
    failed (9 judgements) was named nowhere."""
    from ranking.selectors.data_rule import DataRule

    rule = DataRule(
        min_comparisons=30,
        thin_systems=[("sysA", 28), ("sysB", 34)],
        thin_judgements={"sysA": 9, "sysB": 9},
        unranked=[],
        stable=True,
    )
    assert rule.problems[0] == (
        "2 system(s) have fewer than 30 judgements or comparisons: sysA (28 comparisons, "
        "9 judgements), sysB (9 judgements)."
    )


def test_on_data_the_rule_rejects_the_stability_check_gets_no_verdict_anywhere():
    """On eight judgements the reasons for no clusters said "The stability check fails at
    200 runs ..." while the Stability line beside them said "not judged": on data the
    rule rejects there are no clusters to check, in every message."""
    from ranking.selectors.data_rule import DataRule

    thin = DataRule(
        min_comparisons=30,
        thin_systems=[("a", 8), ("b", 8)],
        unranked=[],
        stable=False,
        runs=200,
        reasons=["two random halves of the runs give different clusters"],
    )
    assert not thin.enough_data
    assert "stability" not in thin.no_clusters.lower()
    assert "stability" not in " ".join(thin.problems).lower()
    assert "stability" not in thin.no_clusters_short
    enough = DataRule(
        min_comparisons=30,
        thin_systems=[],
        unranked=[],
        stable=False,
        runs=200,
        reasons=["two random halves of the runs give different clusters"],
    )
    assert "The stability check fails at 200 runs" in enough.no_clusters
    assert "stability check fails" in enough.no_clusters_short
