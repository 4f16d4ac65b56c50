"""Excluded workers in crowd versus experts (annotations/selectors/experts.py): the crowd
ranking leaves them out and shows their effect."""

from __future__ import annotations

import pytest

from annotations.models import Judgement, Worker
from annotations.selectors.experts import expert_report
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
