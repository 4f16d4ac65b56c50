"""The ranking page shows content-check rates per system with Wilson intervals, and no
summary without content checks."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from ranking.selectors.content_checks import content_check_counts, content_check_summary
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create

pytestmark = pytest.mark.django_db


def _run(campaign, criterion, **fields):
    return ranking_run_compute(
        run=ranking_run_create(
            campaign=campaign, criterion=criterion, runs=20, queue=False, **fields
        )
    )


def _percent(x: float) -> str:
    return f"{round(100 * x)}"


def test_ranking_page_shows_rates_with_wilson_intervals(checked, client):
    campaign, criterion, owner = checked
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, runs=20, queue=False)
    )
    client.force_login(owner)
    html = client.get(f"/rankings/{run.pk}/").content.decode()
    assert "Content checks" in html and "95% Wilson interval" in html
    # each judgement of an output is a trial, and the caption says what that means
    assert "Judged outputs" in html and "read the intervals as too narrow" in html
    for ticked, expected_rate in ((8, "50"), (15, "94"), (5, "31"), (0, "0")):
        ci = binomtest(ticked, 16).proportion_ci(confidence_level=0.95, method="wilson")
        cell = f'title="{ticked} of 16">{expected_rate}% <span class="muted small">[{_percent(ci.low)}&ndash;{_percent(ci.high)}%]</span>'
        assert cell in html, cell


def test_no_summary_without_content_checks(checked, client):
    campaign, criterion, owner = checked
    criterion.content_checks = []
    criterion.save(update_fields=["content_checks"])
    assert content_check_counts(criterion=criterion) is None
    assert content_check_summary(run=_run(campaign, criterion)) is None
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, runs=20, queue=False)
    )
    client.force_login(owner)
    assert "Content checks" not in client.get(f"/rankings/{run.pk}/").content.decode()
