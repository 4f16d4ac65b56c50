"""The shared bulk writer of finished judgements (annotations.services.importing)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from annotations.errors import DomainError
from annotations.models import Judgement, JudgementScore, Task, TaskOutput, Worker
from annotations.services.importing import (
    FinishedJudgement,
    FinishedScore,
    judgements_store_finished,
)
from tests.factories import (
    CampaignFactory,
    CriterionFactory,
    ItemFactory,
    OutputFactory,
    SystemFactory,
)

pytestmark = pytest.mark.django_db

T0 = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)


def _setup(n_items: int):
    campaign = CampaignFactory(min_seconds_per_task=30)
    criterion = CriterionFactory(campaign=campaign)
    systems = [SystemFactory(campaign=campaign, label=f"s{i}") for i in range(3)]
    items = [ItemFactory(campaign=campaign, external_id=f"i{n}") for n in range(n_items)]
    for item in items:
        for system in systems:
            OutputFactory(item=item, system=system)
    return campaign, criterion


def _judgements(n_items: int, *, shared: bool) -> list[FinishedJudgement]:
    return [
        FinishedJudgement(
            item_id=f"i{n}",
            worker_id=f"w{w}",
            scores=(FinishedScore("s0", 10), FinishedScore("s1", 30), FinishedScore("s2", 10)),
            started_at=T0,
            submitted_at=T0 + timedelta(seconds=20 + 20 * w),
            task_external_id=f"t{n}" if shared else "",
            worker_metadata={"round": w},
        )
        for n in range(n_items)
        for w in range(2)
    ]


def test_stores_tasks_workers_and_ranks() -> None:
    campaign, criterion = _setup(2)
    assert (
        judgements_store_finished(
            campaign=campaign, criterion=criterion, judgements=_judgements(2, shared=True)
        )
        == 4
    )
    assert Task.objects.filter(criterion=criterion).count() == 2
    assert TaskOutput.objects.filter(task__criterion=criterion).count() == 6
    assert Worker.objects.filter(campaign=campaign).count() == 2
    assert list(
        JudgementScore.objects.filter(judgement__worker__external_id="w0").values_list(
            "rank", flat=True
        )[:3]
    ) == [2.0, 1.0, 2.0]
    assert sorted(Judgement.objects.values_list("too_fast", flat=True)) == [
        False,
        False,
        True,
        True,
    ]


def test_query_count_does_not_grow_with_rows(django_assert_max_num_queries) -> None:
    campaign, criterion = _setup(12)
    with django_assert_max_num_queries(20):
        judgements_store_finished(
            campaign=campaign, criterion=criterion, judgements=_judgements(12, shared=False)
        )
    assert Task.objects.filter(criterion=criterion).count() == 24


def test_unknown_output_is_refused() -> None:
    campaign, criterion = _setup(1)
    bad = [
        FinishedJudgement(
            item_id="i0",
            worker_id="w",
            scores=(FinishedScore("nope", 1),),
            started_at=T0,
            submitted_at=T0,
        )
    ]
    with pytest.raises(DomainError, match="no output"):
        judgements_store_finished(campaign=campaign, criterion=criterion, judgements=bad)
    assert not Worker.objects.exists()
