"""A Bradley-Terry run whose data leave a strength unbounded (ranking/services/compute.py):
a system that won every comparison gets no value of its own, only the ridge's, so the run
stores how the systems split, and the minimum-data rule names it on the page, in the API
and in the exports."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from ranking.selectors.data_rule import ranking_data_rule
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.ranking.planted import planted_campaign


def _always_first():
    """s0 scored far above the three others in each of 60 four-way judgements: it won all
    its 180 comparisons (the others' scores overlap)."""
    campaign, criterion = planted_campaign(
        strengths=[2000, 0, -5, -10], n_judgements=60, k=4, seed=3
    )
    owner = User.objects.create_user("owner-separation")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    return campaign, criterion, owner


@pytest.mark.django_db
def test_a_system_that_won_every_comparison_is_named_not_given_a_value_with_certainty(client):
    campaign, criterion, owner = _always_first()
    run = ranking_run_create(
        campaign=campaign,
        criterion=criterion,
        method="bradley_terry",
        runs=100,
        seed=1,
        queue=False,
    )
    run = ranking_run_compute(run=run)
    assert run.status == "done", run.error
    # Before: s0 first with a runaway value (about 14 log-odds), a range of exactly "1",
    # and nothing said.
    assert run.inputs["separation"] == {"groups": [["s0"], ["s1", "s2", "s3"]], "compared": True}
    rule = ranking_data_rule(run=run)
    assert rule.separation == [["s0"], ["s1", "s2", "s3"]] and not rule.met
    note = "Bradley-Terry cannot estimate these values: s0 won every comparison it was in"
    assert any(p.startswith(note) for p in rule.problems)

    client.force_login(owner)
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert note in html and "Too little data for clusters" in html

    api = APIClient()
    api.force_authenticate(owner)
    result = api.get(f"/api/rankings/{run.pk}/result/").json()
    assert result["data_rule"]["separation"] == {
        "groups": [["s0"], ["s1", "s2", "s3"]],
        "compared": True,
    }
    assert all(row["cluster"] is None for row in result["rows"])
    exported = json.loads(api.get(f"/api/rankings/{run.pk}/export/json/").content)
    assert exported["data_rule"]["separation"]["groups"][0] == ["s0"]
    # the CSV is data: its clusters are empty, as for any run that fails the rule
    for fmt in ("table", "latex", "markdown"):
        text = api.get(f"/api/rankings/{run.pk}/export/{fmt}/").content.decode()
        assert "won every comparison" in text or "values unbounded" in text, fmt


@pytest.mark.django_db
def test_expected_wins_names_a_system_that_won_every_comparison_too():
    """A statistician's all-winning system under expected wins: value 1.000, spread
    0.000, range "1", no caveat, where Bradley-Terry named it. Every resample repeats the
    same wins: the rule now names it under expected wins as well."""
    campaign, criterion, _ = _always_first()
    run = ranking_run_compute(
        run=ranking_run_create(
            campaign=campaign,
            criterion=criterion,
            method="expected_wins",
            runs=100,
            seed=1,
            queue=False,
        )
    )
    assert run.status == "done", run.error
    assert run.inputs["separation"] == {"groups": [["s0"], ["s1", "s2", "s3"]], "compared": True}
    rule = ranking_data_rule(run=run)
    assert not rule.met
    note = "Expected wins cannot bound these values: s0 won every comparison it was in"
    assert any(p.startswith(note) for p in rule.problems)
    assert "every resample repeats the same wins" in rule.no_clusters


@pytest.mark.django_db
def test_trueskill_keeps_values_finite_and_says_nothing_of_separation():
    """TrueSkill's prior bounds every value: the same data under wmt14 store no split."""
    campaign, criterion, _ = _always_first()
    run = ranking_run_create(
        campaign=campaign, criterion=criterion, method="wmt14", runs=50, seed=1, queue=False
    )
    run = ranking_run_compute(run=run)
    assert run.status == "done", run.error
    assert "separation" not in run.inputs
    assert ranking_data_rule(run=run).separation == []


@pytest.mark.django_db
def test_bradley_terry_on_data_with_every_group_beaten_stores_no_split():
    campaign, criterion = planted_campaign(strengths=[20, 0, -20], n_judgements=60, k=3, seed=2)
    run = ranking_run_create(
        campaign=campaign, criterion=criterion, method="bradley_terry", runs=50, seed=1, queue=False
    )
    run = ranking_run_compute(run=run)
    assert run.status == "done", run.error
    assert "separation" not in run.inputs


@pytest.mark.django_db
def test_expected_wins_refuses_systems_with_only_draws():
    """A reviewer's all-tie file under expected wins (draws left out): every system got
    0.500, one cluster, and the minimum-data rule met, on no decisive comparison."""
    from tests.ranking.planted import all_draw_campaign

    campaign, criterion = all_draw_campaign()
    run = ranking_run_create(
        campaign=campaign, criterion=criterion, method="expected_wins", runs=100, queue=False
    )
    with pytest.raises(ValueError, match="only draws"):  # the chunk's task raises (eager)
        ranking_run_compute(run=run)
    run.refresh_from_db()
    assert run.status == "failed"
    assert run.error.startswith(
        "Cannot rank 'quality': 3 of 3 systems have only draws, and expected wins leaves draws out"
    )
    half = ranking_run_compute(
        run=ranking_run_create(
            campaign=campaign,
            criterion=criterion,
            method="expected_wins",
            runs=100,
            parameters={"draws_rule": "half"},
            queue=False,
        )
    )
    assert half.status == "done", half.error
