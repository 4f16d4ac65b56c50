"""Crowd versus experts says only what the data support: exclusions are applied to the
crowd's ranking (its effect shown beside it), and an alpha or interval that the data
cannot define is "—" with the reason, never "0.000 [0.000, 0.000]"."""

from __future__ import annotations

import csv
import io
import math

import numpy as np
import pytest
from django.urls import reverse

from annotations.core.experts import alpha_with_experts
from annotations.models import CampaignMembership, Judgement, Worker
from annotations.selectors.experts import expert_report, expert_report_csv
from tests.annotations.designer_data import users
from tests.annotations.experts_data import experts_campaign

pytestmark = pytest.mark.django_db


def test_the_crowd_ranking_leaves_excluded_workers_out_and_shows_their_effect(client):
    _campaign, criterion = experts_campaign()
    everyone = expert_report(criterion=criterion, resamples=50)
    assert everyone.excluded == 0 and everyone.ranking_with_excluded is None
    # Exclude the careful worker: the crowd is then the careless one alone.
    Worker.objects.filter(external_id="careful").update(excluded=True, exclusion_reason="test")
    report = expert_report(criterion=criterion, resamples=50)
    assert report.excluded == 1
    assert report.ranking_with_excluded is not None
    assert report.ranking_with_excluded.spearman.value == pytest.approx(
        everyone.ranking.spearman.value
    )
    # Oracle: the same report with the excluded worker's judgements gone altogether.
    Judgement.objects.filter(worker__external_id="careful").delete()
    without = expert_report(criterion=criterion, resamples=50)
    assert report.ranking.spearman.value == pytest.approx(without.ranking.spearman.value)
    assert report.ranking.kendall.value == pytest.approx(without.ranking.kendall.value)
    assert report.ranking.spearman.value != pytest.approx(everyone.ranking.spearman.value)

    rows = list(csv.DictReader(io.StringIO(expert_report_csv(report))))
    figures = [r["figure"] for r in rows if r["figure"].startswith("systems")]
    assert figures == [
        "systems_spearman",
        "systems_kendall_tau_b",
        "systems_with_excluded_spearman",
        "systems_with_excluded_kendall_tau_b",
    ]


def test_the_page_shows_the_ranking_with_and_without_the_excluded(client):
    people = users()
    campaign, _criterion = experts_campaign()
    CampaignMembership.objects.create(
        campaign=campaign, user=people["viewer"], role=CampaignMembership.Role.VIEWER
    )
    client.force_login(people["viewer"])
    url = reverse("annotations:designer-experts", args=[campaign.slug])
    assert "ranking-agreement-with-excluded" not in client.get(url).content.decode()
    Worker.objects.filter(external_id="careful").update(excluded=True)
    page = client.get(url).content.decode()
    assert "the 1 excluded crowd worker left out" in page
    assert 'id="ranking-agreement-with-excluded"' in page
    with_excluded = page.split('id="ranking-agreement-with-excluded"', 1)[1].split("</p>")[0]
    assert "Spearman ρ <strong>1.000</strong>" in with_excluded  # noqa: RUF001


def test_alpha_on_one_shared_output_is_undefined_with_the_reason():
    # One output judged by the worker and an expert: alpha would be 0 by construction.
    estimate = alpha_with_experts(
        np.array([0, 0]), np.array([7, 7]), np.array([10.0, 90.0]), rng=np.random.default_rng(0)
    )
    assert not estimate.defined and math.isnan(estimate.low)
    assert estimate.reason == "needs 2 or more outputs judged by both (1 shared)"


def test_alpha_from_one_item_has_a_value_but_no_interval():
    task = np.zeros(6, dtype=int)
    unit = np.array([1, 1, 2, 2, 3, 3])
    value = np.array([10.0, 12.0, 50.0, 55.0, 90.0, 80.0])
    estimate = alpha_with_experts(task, unit, value, rng=np.random.default_rng(0))
    assert estimate.defined and not estimate.interval_defined
    assert "one item" in estimate.interval_reason
    # Two items: the interval is there.
    two = alpha_with_experts(
        np.array([0, 0, 0, 0, 1, 1]), unit, value, rng=np.random.default_rng(0)
    )
    assert two.interval_defined and two.low < two.high


def test_the_page_and_csv_say_why_an_alpha_is_missing(client):
    people = users()
    campaign, criterion = experts_campaign()
    CampaignMembership.objects.create(
        campaign=campaign, user=people["viewer"], role=CampaignMembership.Role.VIEWER
    )
    # The careless worker keeps a single judgement (5 outputs of one item): alpha has a
    # value but no interval over items.
    careless = Judgement.objects.filter(worker__external_id="careless").order_by("pk")
    Judgement.objects.filter(pk__in=list(careless.values_list("pk", flat=True)[1:])).delete()
    report = expert_report(criterion=criterion, resamples=50)
    alpha = next(r.alpha for r in report.workers if r.worker.external_id == "careless")
    assert alpha.defined and not alpha.interval_defined
    client.force_login(people["viewer"])
    page = client.get(reverse("annotations:designer-experts", args=[campaign.slug])).content
    row = page.decode().split("<code>careless</code>", 1)[1].split("</tr>", 1)[0]
    assert "[0.000, 0.000]" not in row and "resampling items cannot vary it" in row
    rows = list(csv.DictReader(io.StringIO(expert_report_csv(report))))
    mine = next(r for r in rows if r["worker"] == "careless")
    assert (mine["ci_low"], mine["ci_high"]) == ("", "")
    assert mine["note"].startswith("no interval: every shared output is from one item")


def test_the_api_gives_both_rankings_and_the_reasons():
    from rest_framework.test import APIClient

    people = users()
    campaign, _criterion = experts_campaign()
    CampaignMembership.objects.create(
        campaign=campaign, user=people["viewer"], role=CampaignMembership.Role.VIEWER
    )
    api = APIClient()
    api.force_authenticate(people["viewer"])
    url = f"/api/campaigns/{campaign.slug}/experts/"
    report = api.get(url, {"criterion": "quality"}).json()
    assert report["excluded"] == 0 and report["spearman_with_excluded"] is None
    Worker.objects.filter(external_id="careful").update(excluded=True)
    careless = Judgement.objects.filter(worker__external_id="careless").order_by("pk")
    Judgement.objects.filter(pk__in=list(careless.values_list("pk", flat=True)[1:])).delete()
    report = api.get(url, {"criterion": "quality"}).json()
    assert report["excluded"] == 1
    assert report["spearman_with_excluded"]["value"] == pytest.approx(1.0)
    alpha = next(w["alpha"] for w in report["workers"] if w["worker"] == "careless")
    assert alpha["value"] is not None and alpha["low"] is None
    assert "one item" in alpha["interval_reason"]
