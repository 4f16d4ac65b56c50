"""Preference alpha and WMT's kappa do not depend on the order in which an import
created the outputs: every pair of outputs is oriented by system label."""

from __future__ import annotations

import pytest
from django.utils import timezone

from annotations.models import (
    Assignment,
    Judgement,
    JudgementScore,
    Output,
    Task,
    TaskOutput,
    Worker,
)
from annotations.selectors.agreement import criterion_agreement
from tests.factories import CampaignFactory, CriterionFactory, ItemFactory, SystemFactory

pytestmark = pytest.mark.django_db

#: item -> worker -> scores of systems a, b, c (some agreement, some not, some ties)
JUDGEMENTS = {
    "i1": {"w1": (90, 50, 10), "w2": (80, 60, 20), "w3": (30, 60, 60)},
    "i2": {"w1": (20, 70, 40), "w2": (30, 70, 10), "w3": (50, 50, 50)},
    "i3": {"w1": (60, 60, 20), "w2": (10, 40, 90), "w3": (70, 20, 40)},
    "i4": {"w1": (55, 45, 35), "w2": (55, 65, 35), "w3": (20, 80, 40)},
}


def _campaign(*, reversed_items: set[str]):
    """The judgements above; the outputs of ``reversed_items`` created (and so
    numbered) c, b, a instead of a, b, c, as an import with the columns in another
    order would."""
    campaign = CampaignFactory()
    criterion = CriterionFactory(campaign=campaign, name="quality")
    systems = [SystemFactory(campaign=campaign, label=label) for label in "abc"]
    now = timezone.now()
    workers = {
        w: Worker.objects.create(campaign=campaign, platform="imported", external_id=w)
        for w in ("w1", "w2", "w3")
    }
    for key, by_worker in JUDGEMENTS.items():
        item = ItemFactory(campaign=campaign, external_id=key)
        order = [2, 1, 0] if key in reversed_items else [0, 1, 2]
        outputs = {
            s: Output.objects.create(item=item, system=systems[s], text=f"{key}{s}") for s in order
        }
        task = Task.objects.create(
            campaign=campaign, criterion=criterion, item=item, kind="imported"
        )
        for slot, s in enumerate(order):
            TaskOutput.objects.create(task=task, output=outputs[s], slot=slot)
        for name, scores in by_worker.items():
            assignment = Assignment.objects.create(
                worker=workers[name],
                task=task,
                item=item,
                criterion=criterion,
                kind="imported",
                state="submitted",
                started_at=now,
                submitted_at=now,
            )
            judgement = Judgement.objects.create(
                assignment=assignment,
                task=task,
                worker=workers[name],
                criterion=criterion,
                started_at=now,
                submitted_at=now,
                seconds_on_task=30.0,
            )
            JudgementScore.objects.bulk_create(
                JudgementScore(
                    judgement=judgement, output=outputs[s], slot=slot, score=scores[s], rank=1
                )
                for slot, s in enumerate(order)
            )
    return criterion


def test_alpha_and_kappa_do_not_depend_on_the_outputs_order():
    forward = criterion_agreement(criterion=_campaign(reversed_items=set()))
    backward = criterion_agreement(criterion=_campaign(reversed_items={"i1", "i3"}))
    assert forward.preference_alpha is not None and forward.inter_kappa is not None
    assert backward.preference_alpha == pytest.approx(forward.preference_alpha, abs=1e-12)
    assert backward.inter_kappa == pytest.approx(forward.inter_kappa, abs=1e-12)
    assert backward.score_alpha == pytest.approx(forward.score_alpha, abs=1e-12)
