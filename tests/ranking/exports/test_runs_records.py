"""Every export of a stored run records which judgements it used and escapes every name."""

from __future__ import annotations

import csv
import io
import json

import pytest
from rest_framework.test import APIClient

from annotations.models import Worker
from tests.ranking.planted import planted_campaign
from tests.ranking.ranked_runs import _export, _owned, _rank

pytestmark = pytest.mark.django_db


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
