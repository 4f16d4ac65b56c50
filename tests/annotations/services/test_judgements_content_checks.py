"""The submit service applies RankME's checklist rules, so every path into it (the
pages, scripts, any API) refuses what the page refuses; the quality preset asks the
checklist."""

from __future__ import annotations

import pytest

from annotations.models import Campaign, Judgement
from annotations.services.assignment import task_next_for
from annotations.services.criteria import CRITERION_PRESETS
from annotations.services.judgements import InvalidScores, judgement_submit
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db


def _assignment():
    campaign = CampaignFactory(status=Campaign.Status.LIVE)
    criterion = CriterionFactory(campaign=campaign, content_checks=["added", "missing", "perfect"])
    task_with_outputs(campaign=campaign, criterion=criterion)
    worker = WorkerFactory(campaign=campaign)
    return task_next_for(worker=worker, campaign=campaign)


def _scores(assignment):
    return {s: 100 + s for s in assignment.display_order}


@pytest.mark.parametrize(
    ("ticks", "message"),
    [
        ({0: ["perfect"], 1: ["perfect"]}, "tick at least one statement"),  # slot 2 unticked
        ({0: ["perfect", "missing"], 1: ["added"], 2: ["perfect"]}, "cannot be ticked together"),
        ({0: ["perfect", "added"], 1: ["added"], 2: ["perfect"]}, "cannot be ticked together"),
    ],
)
def test_the_service_refuses_missing_or_contradictory_ticks(ticks, message):
    assignment = _assignment()
    with pytest.raises(InvalidScores, match=message):
        judgement_submit(assignment=assignment, scores=_scores(assignment), checks=ticks)
    assert not Judgement.objects.exists()
    ok = {0: ["perfect"], 1: ["missing", "added"], 2: ["missing"]}
    judgement_submit(assignment=assignment, scores=_scores(assignment), checks=ok)
    assert Judgement.objects.count() == 1


def test_the_quality_preset_asks_the_checklist_as_e2e_did():
    assert CRITERION_PRESETS["quality"]["content_checks"] == ["added", "missing", "perfect"]
