"""Honest results on thin data: unranked systems are listed, clusters and the stability
verdict only under the minimum-data rule; every export records what it rests on."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from annotations.models import Worker
from ranking.exports.runs import parse_csv
from ranking.models import RankingRun
from ranking.selectors.runs import ranking_data_rule
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from ranking.stats._clusters import clusters_from_ranges
from tests.factories import SystemFactory
from tests.ranking.planted import planted_campaign

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


def _owned(campaign) -> User:
    owner = User.objects.create_user(f"owner-{campaign.pk}")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    return owner


def _rank(campaign, criterion, **kwargs) -> RankingRun:
    run = ranking_run_create(campaign=campaign, criterion=criterion, queue=False, **kwargs)
    return ranking_run_compute(run=run)


def _export(client, run, fmt: str) -> str:
    response = client.get(f"/api/rankings/{run.pk}/export/{fmt}/")
    assert response.status_code == 200, response.content
    return response.content.decode()


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
    assert "4 system(s) have fewer than 30 comparisons: s0 (6), s1 (6), s2 (6), s3 (6)." in html
    assert "at least 30 comparisons and the stability check" in html  # the rule, stated
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
        "% No clusters: Too few comparisons: 4 system(s) have fewer than 30 "
        "(RANKING\\_MIN\\_COMPARISONS); collect more judgements for them"
    ) in latex
    # The reasons are said once, in the box above the table; rows carry a mark it explains.
    assert "In order of value; no clusters (the reasons are above)." in html
    assert html.count("(RANKING_MIN_COMPARISONS)") == 0 and html.count("have fewer than 30") == 1
    assert html.count("marks a system with fewer than 30 comparisons") == 1
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
    # Magnitude means are raw arithmetic means: the page says what pulls them.
    assert "data-magnitude-note" in means and "rank by it" in means


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
    assert "% No clusters: The stability check fails at 200 runs" in _export(api, run, "latex")
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
    assert ["unranked", "", "zeta", "", "", "", "", "0"] in rows


def test_every_export_records_which_judgements_it_used():
    campaign, criterion = planted_campaign(strengths=[60, 20, -20, -60], n_judgements=50, k=4)
    Worker.objects.filter(campaign=campaign, external_id="w0").update(excluded=True)
    api = APIClient()
    api.force_authenticate(_owned(campaign))
    run = _rank(campaign, criterion, runs=30, seed=17, parameters={"draw_probability": 0.1})
    assert run.inputs["judgements_total"] == 50 and run.inputs["judgements_used"] == 40
    assert run.inputs["left_out"]["excluded_workers"] == 10
    assert run.inputs["excluded_workers"] == ["w0"]
    data = json.loads(_export(api, run, "json"))
    assert data["seed"] == 17 and data["method"] == "wmt14" and data["runs"] == 30
    # The parameters computed with: the one given, and the defaults beside it.
    assert data["parameters"]["draw_probability"] == 0.1 and "sigma0" in data["parameters"]
    assert data["judgements"] == 40 and data["judgements_total"] == 50
    assert data["left_out"] == {"attention_checks": 0, "repeats": 0, "excluded_workers": 10}
    assert data["excluded_workers"] == ["w0"] and data["fingerprint"] == run.fingerprint
    sidecar = list(csv.reader(io.StringIO(_export(api, run, "provenance"))))
    assert sidecar[0] == ["field", "value"]
    heads = dict(sidecar[1:])
    assert heads["judgements used"] == "40" and heads["judgements stored"] == "50"
    assert heads["excluded workers"] == "w0" and heads["seed"] == "17"
    assert heads["judgements left out"] == "attention checks 0, repeats 0, excluded workers 10"
    # The sidecar names the same parameters as the JSON: the one given and the defaults.
    assert json.loads(heads["parameters"]) == data["parameters"]
    assert heads["fingerprint of the judgements"] == run.inputs["judgements_fingerprint"]
    assert heads["fingerprint (judgements, criterion, method, parameters, runs, seed)"] == (
        run.fingerprint
    )
    for fmt in ("table", "latex", "markdown"):
        text = _export(api, run, fmt)
        for needle in (
            "judgements used: 40",
            "judgements stored: 50",
            "excluded workers",
            "w0",
            "seed",
            "17",
            "draw",
            "0.1",
            "wmt14",
            run.fingerprint,
            "minimum-data rule",
        ):
            assert needle in text, (fmt, needle)


def test_exports_of_a_stored_run_escape_campaign_and_system_names():
    campaign, criterion = planted_campaign(strengths=[60, 20, -20], n_judgements=20, k=3)
    campaign.name = r"\input{/etc/passwd}"
    campaign.save(update_fields=["name"])
    campaign.systems.filter(label="s0").update(label=r"\input{/etc/passwd}")
    campaign.systems.filter(label="s1").update(label="=1+1")
    campaign.systems.filter(label="s2").update(label="a|b")
    api = APIClient()
    api.force_authenticate(_owned(campaign))
    run = _rank(campaign, criterion, runs=20, seed=1)
    latex = _export(api, run, "latex")
    assert r"\input" not in latex and r"\textbackslash{}input\{/etc/passwd\}" in latex
    cells = [c for row in csv.reader(io.StringIO(_export(api, run, "csv"))) for c in row]
    assert "'=1+1" in cells and "=1+1" not in cells
    assert r"a\|b" in _export(api, run, "markdown")


CLUSTER_TRUTH = "each rule separates every system above it from every system below it"


def test_the_cluster_caption_says_what_a_cluster_boundary_means_and_no_more(client):
    """Statistician's review: the caption said systems in one cluster "cannot be told
    apart from each other", false under WMT's chaining rule (a cluster can hold systems
    whose own ranges do not overlap, e.g. ranges 1-2 and 4-6 chained by 2-4). What holds:
    a boundary separates everything above it from everything below it."""
    # The chaining counterexample, on the rule itself: 1-2 and 4-6 share cluster 1.
    assert list(clusters_from_ranges([4, 3, 2, 1], [1, 2, 4, 7], [2, 4, 6, 8])) == [1, 1, 1, 2]
    campaign, criterion = planted_campaign(
        strengths=[150, 0, -150], n_judgements=60, seed=3, k=3, noise=5
    )
    client.force_login(_owned(campaign))
    run = _rank(campaign, criterion, runs=200, seed=1)
    assert ranking_data_rule(run=run).met
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert CLUSTER_TRUTH in html and "some of them may still differ" in html
    assert "told apart" not in html and "cannot be distinguished" not in html
    # No clusters shown: no sentence about them.
    thin, thin_criterion = planted_campaign(strengths=[60, 20, -20, -60], n_judgements=2, k=4)
    client.force_login(_owned(thin))
    thin_run = _rank(thin, thin_criterion, runs=50, seed=1)
    html = client.get(f"/rankings/{thin_run.pk}/").content.decode()
    assert CLUSTER_TRUTH not in html and "told apart" not in html
