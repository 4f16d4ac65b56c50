"""The JSON export writes the parameters a run computed with, defaults included."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from ranking.stats import method_parameters
from tests.ranking.planted import planted_campaign
from tests.ranking.ranked_runs import _export, _owned, _rank

pytestmark = pytest.mark.django_db


def test_a_wmt14_run_with_defaults_exports_the_parameters_it_used():
    campaign, criterion = planted_campaign(strengths=[60, 0, -60], n_judgements=6, k=3)
    owner = _owned(campaign)
    run = _rank(campaign, criterion, runs=20, seed=1)
    assert run.status == "done" and run.parameters == {}
    api = APIClient()
    api.force_authenticate(owner)
    parameters = json.loads(_export(api, run, "json"))["parameters"]
    assert set(method_parameters("wmt14")) <= set(parameters)
    assert parameters["mu0"] == method_parameters("wmt14")["mu0"]
    # steps, worked out from the data, is written as the number used.
    assert parameters["steps"] == run.n_comparisons + 1
    assert isinstance(parameters["beta"], float) and parameters["beta"] > 0
