import math

import krippendorff
import numpy as np
import pytest

from annotations.models import Criterion, JudgementScore
from annotations.selectors.monitoring import criterion_agreement
from tests.annotations.designer_data import judged_campaign

pytestmark = pytest.mark.django_db


def _score_matrix(criterion, transform):
    """Workers x (task, output) units, as the krippendorff package wants them."""
    rows = JudgementScore.objects.filter(
        judgement__criterion=criterion, role="regular"
    ).values_list("judgement__worker_id", "judgement__task_id", "output_id", "score")
    workers = sorted({r[0] for r in rows})
    units = sorted({(r[1], r[2]) for r in rows})
    matrix = np.full((len(workers), len(units)), np.nan)
    for worker, task, output, score in rows:
        matrix[workers.index(worker), units.index((task, output))] = transform(score)
    return matrix


def test_magnitude_scores_agree_as_logarithms_so_one_huge_number_does_not_swamp_alpha():
    campaign = judged_campaign(n_items=4, n_workers=3)
    criterion = campaign.criteria.get(name="quality")
    # One worker types scores a thousand times larger in one judgement: the same ratios.
    judgement = criterion.judgements.order_by("id").first()
    assert judgement is not None
    for score in judgement.scores.all():
        score.score *= 1000
        score.save(update_fields=["score"])
    ours = criterion_agreement(criterion=criterion)
    expected = krippendorff.alpha(
        reliability_data=_score_matrix(criterion, lambda s: math.log(max(s, 1.0))),
        level_of_measurement="interval",
    )
    raw = krippendorff.alpha(
        reliability_data=_score_matrix(criterion, float), level_of_measurement="interval"
    )
    assert ours.score_alpha is not None
    assert ours.score_alpha == pytest.approx(expected, abs=1e-9)
    assert raw < ours.score_alpha


def test_slider_scores_are_compared_as_they_are():
    campaign = judged_campaign(n_items=3, n_workers=3)
    criterion = campaign.criteria.get(name="quality")
    Criterion.objects.filter(pk=criterion.pk).update(scale=Criterion.Scale.SLIDER)
    criterion.refresh_from_db()
    expected = krippendorff.alpha(
        reliability_data=_score_matrix(criterion, float), level_of_measurement="interval"
    )
    assert criterion_agreement(criterion=criterion).score_alpha == pytest.approx(expected, abs=1e-9)
