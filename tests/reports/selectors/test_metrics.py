import math

import pytest

from annotations.models import Criterion, JudgementScore
from ranking.models import RankingResult, RankingRun
from reports.selectors.metrics import human_output_scores, metric_correlations
from reports.services.metrics import metric_scores_import
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def _report(campaign, criterion, **kwargs):
    return metric_correlations(
        campaign=campaign,
        criterion=criterion,
        seed=0,
        resamples=20,
        **kwargs,
    )


def test_magnitude_scores_are_averaged_as_logs_other_scales_as_they_are():
    _campaign, criterion = planted_campaign(strengths=[20, 0], n_judgements=4, seed=1, k=2)
    score = JudgementScore.objects.filter(judgement__criterion=criterion).first()
    assert score is not None
    got = human_output_scores(criterion=criterion)[score.output_id][2]
    assert got == math.log(score.score)  # one judgement per output
    criterion.scale = Criterion.Scale.LIKERT
    criterion.save(update_fields=["scale"])
    assert human_output_scores(criterion=criterion)[score.output_id][2] == score.score


def test_system_scores_segment_means_unless_given_and_ranking_source():
    campaign, criterion = planted_campaign(strengths=[60, 0, -60], n_judgements=9, seed=2, k=3)
    lines = ["system,item,metric,score"]
    for i, output in enumerate(campaign.items.values_list("outputs__system__label", "external_id")):
        lines.append(f"{output[0]},{output[1]},m,{i}")
    lines.append("s2,,m,100")  # a system-level score overrides s2's segment mean
    metric_scores_import(campaign=campaign, data=("\n".join(lines) + "\n").encode(), file="m.csv")
    (m,) = _report(campaign, criterion).metrics
    points = {p.label: p.metric for p in m.points}
    assert points["s2"] == 100.0
    s0 = [
        i
        for i, (label, _) in enumerate(
            campaign.items.values_list("outputs__system__label", "external_id")
        )
        if label == "s0"
    ]
    assert points["s0"] == math.fsum(s0) / len(s0)
    # human="ranking" takes the latest finished run's values, and says so.
    run = RankingRun.objects.create(
        campaign=campaign, criterion=criterion, status="done", progress=1.0
    )
    for value, system in zip([3.0, 2.0, 1.0], campaign.systems.order_by("label"), strict=True):
        RankingResult.objects.create(
            run=run,
            system=system,
            value=value,
            spread=0,
            rank_lo=1,
            rank_hi=1,
            cluster=1,
            comparisons=5,
        )
    report = _report(campaign, criterion, human="ranking")
    assert f"ranking run #{run.pk}" in report.human
    assert [p.human for p in report.metrics[0].points] == [3.0, 2.0, 1.0]
    assert "no finished ranking run" not in report.human
    run.delete()
    assert "no finished ranking run" in _report(campaign, criterion, human="ranking").human
