"""Crowd versus experts read from a campaign (annotations.selectors.experts)."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest

from annotations.exports.experts import expert_report_csv
from annotations.models import JudgementScore, Task
from annotations.selectors.experts import expert_report
from tests.annotations.experts_data import experts_campaign

pytestmark = pytest.mark.django_db


def test_imported_experts_are_marked_and_judges_of_one_file_share_tasks() -> None:
    campaign, criterion = experts_campaign()
    experts = set(campaign.workers.filter(expert=True).values_list("external_id", flat=True))
    assert experts == {"expertA", "expertB"}
    # Within each import, judges of the same outputs share a task: 16 expert tasks,
    # 16 + 4 crowd tasks. Crowd and experts are compared on outputs, across tasks.
    assert Task.objects.filter(criterion=criterion).count() == 36
    assert {t.judgements.count() for t in Task.objects.filter(criterion=criterion)} == {1, 2}


def test_each_workers_alpha_is_the_krippendorff_packages_with_the_experts_consensus() -> None:
    """Two coders per output: the worker and the experts' mean score (the
    ``krippendorff`` package as the oracle); the experts' pairs among themselves do not
    enter (tests/annotations/selectors/test_experts_consensus.py)."""
    _campaign, criterion = experts_campaign()
    report = expert_report(criterion=criterion, rng=np.random.default_rng(0), resamples=200)
    assert report.experts == 2
    by_worker = {row.worker.external_id: row.alpha for row in report.workers}
    # The worker who judged nothing the experts judged is not listed; worst first.
    assert list(by_worker) == ["careless", "careful"]
    for name, alpha in by_worker.items():
        rows = JudgementScore.objects.filter(
            judgement__criterion=criterion,
            judgement__worker__external_id__in=[name, "expertA", "expertB"],
        ).values_list("judgement__worker__external_id", "output_id", "score")
        coders = [name, "expertA", "expertB"]
        outputs = sorted({o for _, o, _ in rows})
        matrix = np.full((3, len(outputs)), np.nan)
        for coder, output, score in rows:
            matrix[coders.index(coder), outputs.index(output)] = score
        matrix = np.vstack([matrix[0], np.nanmean(matrix[1:], axis=0)])
        expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
        assert alpha.value == pytest.approx(expected, abs=1e-12)
        assert alpha.n == 80
        assert alpha.low <= alpha.value <= alpha.high
    assert by_worker["careful"].value > 0.9 > by_worker["careless"].high
    # The crowd's ranking is the experts' (the careful worker outweighs the careless).
    assert report.ranking.spearman.value == pytest.approx(1.0)
    assert report.ranking.spearman.n == 5


def test_the_report_is_the_same_on_every_read() -> None:
    _campaign, criterion = experts_campaign()
    assert expert_report_csv(expert_report(criterion=criterion)) == expert_report_csv(
        expert_report(criterion=criterion)
    )
