"""The shared bulk writer of finished judgements (annotations.importing.judgements)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from annotations.importing.judgements import (
    FinishedJudgement,
    FinishedScore,
    judgements_store_finished,
)
from annotations.models import Judgement, JudgementScore, Task, TaskOutput, Worker
from common.errors import DomainError
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


def test_query_count_does_not_grow_with_rows() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    queries = []
    for n in (12, 120):
        campaign, criterion = _setup(n)
        with CaptureQueriesContext(connection) as context:
            judgements_store_finished(
                campaign=campaign, criterion=criterion, judgements=_judgements(n, shared=False)
            )
        queries.append(len(context.captured_queries))
        assert Task.objects.filter(criterion=criterion).count() == 2 * n
    assert queries[0] == queries[1] <= 30


def test_fast_ranks_follow_the_engine_rule() -> None:
    import numpy as np

    from annotations.core.scoring import ranks_from_scores
    from annotations.importing.judgements import _competition_ranks

    rng = np.random.default_rng(3)
    for _ in range(300):
        k = int(rng.integers(1, 8))
        scores = [float(v) for v in rng.integers(0, 5, size=k) * 25]
        assert _competition_ranks(scores) == ranks_from_scores(scores)


def test_progress_reaches_the_total() -> None:
    campaign, criterion = _setup(4)
    seen: list[tuple[int, int]] = []
    judgements_store_finished(
        campaign=campaign,
        criterion=criterion,
        judgements=_judgements(4, shared=False),
        progress=lambda done, total: seen.append((done, total)),
    )
    # 8 tasks, 24 slots, 8 assignments, 8 judgements, 24 scores.
    assert seen[-1] == (72, 72)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


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
