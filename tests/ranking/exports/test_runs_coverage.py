"""The page, the API and the exports state the coverage the rank ranges kept."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ranking.exports import runs as exports
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.annotations.designer_data import judged_campaign, users


def _run_of_100(client):
    """A WMT14 run of 100 runs of a judged campaign, its owner signed in on ``client``."""
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=6)
    run = ranking_run_compute(
        run=ranking_run_create(
            campaign=campaign, criterion=campaign.criteria.get(), queue=False, runs=100
        )
    )
    client.force_login(people["owner"])
    return run, people


@pytest.mark.django_db
def test_page_api_and_exports_state_the_coverage_kept(client):
    run, people = _run_of_100(client)
    html = client.get(reverse("ranking:run", args=[run.pk])).content.decode()
    assert "the rank ranges keep 94 of 100 runs (94.0%; 95.0% asked)" in html
    api = APIClient()
    api.force_authenticate(people["owner"])
    coverage = api.get(f"/api/rankings/{run.pk}/result/").json()["coverage"]
    assert coverage["runs_kept"] == 94 and coverage["coverage"] == pytest.approx(0.94)
    for fmt in ("table", "latex", "markdown", "provenance"):
        assert "keep 94 of 100 runs" in exports.run_export(run=run, fmt=fmt), fmt


@pytest.mark.django_db
def test_the_page_and_api_say_a_wmt14_range_is_no_confidence_interval(client):
    """A statistician's 20 datasets of 8 equal systems gave WMT14 ranges that did not
    overlap in 10 of them (1 of 20 under Bradley-Terry): its runs go over the same
    comparisons in shuffled order, not over resampled judgements. "keep 190 of 200 runs
    (95%)" read as a 95% interval; the page and the API now say what it is not."""
    run, people = _run_of_100(client)
    html = client.get(reverse("ranking:run", args=[run.pk])).content.decode()
    assert "A share of the runs kept, not a confidence level" in html
    assert "two ranges that do not overlap are no significance test" in html
    api = APIClient()
    api.force_authenticate(people["owner"])
    meaning = api.get(f"/api/rankings/{run.pk}/result/").json()["coverage"]["meaning"]
    assert meaning.startswith("A share of the runs kept, not a confidence level")
