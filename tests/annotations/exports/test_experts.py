"""The crowd-versus-experts report as CSV (annotations/exports/experts.py)."""

from __future__ import annotations

import csv
import io

import pytest

from annotations.exports.experts import expert_report_csv
from annotations.models import Worker
from annotations.selectors.experts import expert_report
from tests.annotations.experts_data import experts_campaign

pytestmark = pytest.mark.django_db


def test_csv_export_names_every_worker_and_the_correlations() -> None:
    _campaign, criterion = experts_campaign()
    Worker.objects.filter(external_id="careless").update(external_id="=HYPERLINK(1)")
    rows = list(csv.DictReader(io.StringIO(expert_report_csv(expert_report(criterion=criterion)))))
    assert [r["worker"] for r in rows[:2]] == ["'=HYPERLINK(1)", "careful"]  # formula defused
    assert [r["figure"] for r in rows[2:]] == ["systems_spearman", "systems_kendall_tau_b"]
    assert float(rows[2]["value"]) == pytest.approx(1.0)


def test_csv_gives_the_ranking_with_the_excluded_workers_when_some_are_excluded() -> None:
    _campaign, criterion = experts_campaign()

    def figures() -> list[str]:
        report = expert_report(criterion=criterion, resamples=50)
        rows = csv.DictReader(io.StringIO(expert_report_csv(report)))
        return [r["figure"] for r in rows if r["figure"].startswith("systems")]

    assert figures() == ["systems_spearman", "systems_kendall_tau_b"]
    Worker.objects.filter(external_id="careful").update(excluded=True, exclusion_reason="test")
    assert figures() == [
        "systems_spearman",
        "systems_kendall_tau_b",
        "systems_with_excluded_spearman",
        "systems_with_excluded_kendall_tau_b",
    ]
