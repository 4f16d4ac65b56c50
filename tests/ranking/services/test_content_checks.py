"""The content-check summary on the ranking page: per system, how often workers ticked
each check, with a 95% Wilson interval; only for criteria with content checks."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from scipy.stats import binomtest

from annotations.models import JudgementScore, Worker
from ranking.selectors.runs import content_check_counts
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def checked():
    """Four systems in every judgement (20 judgements); s0 ticked "perfect" 8 times, s3
    ticked "missing" 15 times and "added" 5 times; a worker's ticks are excluded."""
    campaign, criterion = planted_campaign(strengths=[60, 20, -20, -60], n_judgements=20, k=4)
    criterion.content_checks = ["added", "missing", "perfect"]
    criterion.save(update_fields=["content_checks"])
    scores = JudgementScore.objects.filter(judgement__criterion=criterion).order_by("judgement_id")
    s0 = list(
        scores.filter(output__system__label="s0").exclude(judgement__worker__external_id="w4")
    )
    s3 = list(
        scores.filter(output__system__label="s3").exclude(judgement__worker__external_id="w4")
    )
    assert len(s0) == len(s3) == 16
    for score in s0[:8]:
        score.checks = ["perfect"]
    for i, score in enumerate(s3):
        score.checks = ["missing", "added"] if i < 5 else ["missing"] if i < 15 else []
    JudgementScore.objects.bulk_update(s0 + s3, ["checks"])
    # An excluded worker ticked everything everywhere: left out like in the ranking.
    Worker.objects.filter(campaign=campaign, external_id="w4").update(excluded=True)
    JudgementScore.objects.filter(judgement__worker__external_id="w4").update(
        checks=["added", "missing", "perfect"]
    )
    owner = User.objects.create_user("checker")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    return campaign, criterion, owner


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
    for ticked, expected_rate in ((8, "50"), (15, "94"), (5, "31"), (0, "0")):
        ci = binomtest(ticked, 16).proportion_ci(confidence_level=0.95, method="wilson")
        cell = f'title="{ticked} of 16">{expected_rate}% <span class="muted small">[{_percent(ci.low)}&ndash;{_percent(ci.high)}%]</span>'
        assert cell in html, cell


def test_no_summary_without_content_checks(checked, client):
    campaign, criterion, owner = checked
    criterion.content_checks = []
    criterion.save(update_fields=["content_checks"])
    assert content_check_counts(criterion=criterion) is None
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, runs=20, queue=False)
    )
    client.force_login(owner)
    assert "Content checks" not in client.get(f"/rankings/{run.pk}/").content.decode()
