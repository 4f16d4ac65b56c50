"""The content checks of a ranking (ranking/selectors/content_checks.py): the summary of a run
(per system, how often workers ticked each check, with a Wilson interval; only for
criteria with content checks), as the ranking page and the result API show it."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from ranking.selectors.content_checks import content_check_counts, content_check_summary
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create

pytestmark = pytest.mark.django_db


def test_selector_counts_ticks_per_system_and_check(checked):
    _campaign, criterion, _owner = checked
    counts = content_check_counts(criterion=criterion)
    assert counts is not None
    assert counts.checks == ["added", "missing", "perfect"]
    assert counts.systems == ["s0", "s1", "s2", "s3"] and counts.outputs == [16, 16, 16, 16]
    assert counts.ticked == [[0, 0, 8], [0, 0, 0], [0, 0, 0], [5, 15, 0]]
    everyone = content_check_counts(criterion=criterion, exclude_excluded_workers=False)
    assert everyone is not None and everyone.outputs == [20] * 4
    assert everyone.ticked[1] == [4, 4, 4]


def _run(campaign, criterion, **fields):
    return ranking_run_compute(
        run=ranking_run_create(
            campaign=campaign, criterion=criterion, runs=20, queue=False, **fields
        )
    )


def test_summary_gives_each_systems_rates_with_wilson_intervals(checked):
    campaign, criterion, _owner = checked
    summary = content_check_summary(run=_run(campaign, criterion))
    assert summary is not None
    assert summary.checks == ["added", "missing", "perfect"] and summary.confidence == 0.95
    assert [(r.system, r.outputs) for r in summary.rows] == [(f"s{i}", 16) for i in range(4)]
    ticked = [[c.ticked for c in r.cells] for r in summary.rows]
    assert ticked == [[0, 0, 8], [0, 0, 0], [0, 0, 0], [5, 15, 0]]
    for row in summary.rows:
        for cell in row.cells:
            # Oracle: scipy's Wilson interval of the same counts.
            ci = binomtest(cell.ticked, 16).proportion_ci(confidence_level=0.95, method="wilson")
            assert cell.rate == cell.ticked / 16
            assert cell.lo == pytest.approx(ci.low, abs=1e-12)
            assert cell.hi == pytest.approx(ci.high, abs=1e-12)


def test_summary_counts_the_judgements_the_run_ranks(checked):
    # A run that keeps the excluded worker counts its ticks too (20 outputs per system).
    campaign, criterion, _owner = checked
    summary = content_check_summary(run=_run(campaign, criterion, exclude_flagged=False))
    assert summary is not None
    assert [r.outputs for r in summary.rows] == [20] * 4
    assert [c.ticked for c in summary.rows[1].cells] == [4, 4, 4]


def test_summary_at_another_confidence_level(checked):
    campaign, criterion, _owner = checked
    summary = content_check_summary(run=_run(campaign, criterion), confidence=0.99)
    assert summary is not None and summary.confidence == 0.99
    cell = summary.rows[3].cells[1]  # s3 "missing": 15 of 16
    ci = binomtest(15, 16).proportion_ci(confidence_level=0.99, method="wilson")
    assert (cell.lo, cell.hi) == (pytest.approx(ci.low), pytest.approx(ci.high))


def test_judgements_that_recorded_no_checks_give_no_table_not_zero_percent(checked):
    """An E2E folder imported with ``import_e2e`` stored no checks: every system read
    "0% [0-1%]" for every check, beside 4,055 "missing" answers in the file."""
    from annotations.models import JudgementScore

    campaign, criterion, _owner = checked
    JudgementScore.objects.filter(judgement__criterion=criterion).update(checks=[])
    assert content_check_counts(criterion=criterion) is None
    assert content_check_summary(run=_run(campaign, criterion)) is None
