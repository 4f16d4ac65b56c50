"""Submitting a page of criteria (annotations/services/judgements.py): all or nothing."""

from __future__ import annotations

import pytest

from annotations.models import Assignment, Judgement, JudgementScore
from annotations.services.assignment import (
    task_next_for,
)
from tests.annotations.built_campaigns import _page, _scores, built_campaign
from tests.factories import (
    WorkerFactory,
)

pytestmark = pytest.mark.django_db


def test_page_submit_is_all_or_nothing_with_errors_per_criterion_and_slot():
    from annotations.services.judgements import InvalidPageScores, judgements_submit_page

    campaign = built_campaign(setup="together")
    lead = task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign)
    assert lead is not None
    page = _page(lead)
    quality, natural = page
    scores = _scores(page)
    partial: dict[int, dict[int, float]] = {
        quality.criterion_id: scores[quality.criterion_id],
        natural.criterion_id: {0: 5},
    }
    with pytest.raises(InvalidPageScores) as refused:
        judgements_submit_page(assignments=page, scores=partial)
    assert refused.value.errors == {natural.criterion_id: {1: "Give this output a score."}}
    assert not Judgement.objects.exists() and not JudgementScore.objects.exists()
    assert set(Assignment.objects.values_list("state", flat=True)) == {"active"}

    made = judgements_submit_page(assignments=page, scores=scores)
    assert [j.criterion_id for j in made] == [quality.criterion_id, natural.criterion_id]
    # Submitting the page again (a double click, a second tab) writes nothing new.
    again = judgements_submit_page(assignments=page, scores=scores)
    assert [j.pk for j in again] == [j.pk for j in made]
    assert Judgement.objects.count() == 2 and JudgementScore.objects.count() == 4


def test_page_submit_refused_too_fast_writes_nothing():
    from annotations.services.judgements import TooFast, judgements_submit_page

    campaign = built_campaign(setup="together", min_seconds_per_task=30)
    lead = task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign)
    assert lead is not None
    page = _page(lead)
    with pytest.raises(TooFast):
        judgements_submit_page(assignments=page, scores=_scores(page))
    assert not Judgement.objects.exists()
    judgements_submit_page(assignments=page, scores=_scores(page), acknowledge_too_fast=True)
    assert Judgement.objects.filter(too_fast=True).count() == 2
