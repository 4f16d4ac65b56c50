"""The shared bulk writer of finished judgements (annotations.services.finished_judgements)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from annotations.models import Judgement, JudgementScore, Task, TaskOutput, Worker
from annotations.services.finished_judgements import (
    FinishedJudgement,
    FinishedScore,
    judgements_store_finished,
)
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
        # Two judges of each item, same outputs, no task ids: one task per item.
        assert Task.objects.filter(criterion=criterion).count() == n
    assert queries[0] == queries[1] <= 30


def test_fast_ranks_follow_the_engine_rule() -> None:
    import numpy as np

    from annotations.core.scoring import ranks_from_scores
    from annotations.services.finished_judgements import _competition_ranks

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
    # 4 tasks (two judges each), 12 slots, 8 assignments, 8 judgements, 24 scores.
    assert seen[-1] == (56, 56)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


@pytest.mark.django_db(transaction=True)
def test_it_is_its_own_transaction_when_called_outside_one() -> None:
    """The writer opens its transaction itself (a page, a command or a test without one
    around it): stored whole, or not at all. (A decorator that slipped onto another
    function left it without one, and its bulk writes refused to run.)"""
    campaign, criterion = _setup(2)
    assert (
        judgements_store_finished(
            campaign=campaign, criterion=criterion, judgements=_judgements(2, shared=False)
        )
        == 4
    )
    bad = [*_judgements(2, shared=False)]
    bad[-1] = FinishedJudgement(
        item_id="i0",
        worker_id="w9",
        scores=(FinishedScore("nope", 1),),
        started_at=T0,
        submitted_at=T0,
    )
    before = Worker.objects.count()
    with pytest.raises(DomainError):
        judgements_store_finished(campaign=campaign, criterion=criterion, judgements=bad)
    assert Worker.objects.count() == before


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


def _judged(item: str, worker: str, order: tuple[str, ...], *, text: str = "") -> FinishedJudgement:
    """A judgement of ``item`` giving s0 30, s1 20 and s2 10 points, shown in ``order``."""
    points = {"s0": 30.0, "s1": 20.0, "s2": 10.0}
    return FinishedJudgement(
        item_id=item,
        worker_id=worker,
        scores=tuple(
            FinishedScore(system, points[system], text=text if system == "s1" else "")
            for system in order
        ),
        started_at=T0,
        submitted_at=T0 + timedelta(seconds=40),
    )


def test_judges_of_the_same_outputs_share_a_task_in_whatever_order_they_saw_them() -> None:
    from annotations.models import Assignment

    campaign, criterion = _setup(2)
    judgements_store_finished(
        campaign=campaign,
        criterion=criterion,
        judgements=[
            _judged("i0", "w0", ("s0", "s1", "s2")),
            _judged("i0", "w1", ("s2", "s0", "s1")),  # same outputs, another order
            _judged("i0", "w0", ("s1", "s2", "s0")),  # the same judge again: a repeat
            _judged("i0", "w2", ("s0", "s1")),  # another set of outputs
            _judged("i1", "w1", ("s0", "s1", "s2")),  # another item
            _judged("i0", "w3", ("s0", "s1", "s2"), text="Edited."),  # another text shown
        ],
    )
    tasks = list(Task.objects.filter(criterion=criterion).order_by("number"))
    assert [t.judgements.count() for t in tasks] == [3, 1, 1, 1]
    shared = tasks[0]
    # Its slots are the first judgement's order; each judge's order is kept as shown.
    assert list(
        shared.task_outputs.order_by("slot").values_list("output__system__label", flat=True)
    ) == ["s0", "s1", "s2"]
    orders = [
        a.display_order for a in Assignment.objects.filter(task=shared).order_by("worker", "id")
    ]
    assert orders == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    # Scores are stored against the task's slots: s0 always in slot 0 with 30 points.
    for judgement in shared.judgements.all():
        assert list(
            judgement.scores.order_by("slot").values_list(
                "slot", "output__system__label", "score", "rank"
            )
        ) == [(0, "s0", 30.0, 1.0), (1, "s1", 20.0, 2.0), (2, "s2", 10.0, 3.0)]
    # The edited text makes its own task, whose slot keeps the text the judge saw.
    edited = tasks[3]
    assert edited.task_outputs.get(slot=1).text == "Edited."


def test_a_task_id_with_other_systems_is_still_refused_but_another_order_is_not() -> None:
    campaign, criterion = _setup(1)
    same = [
        FinishedJudgement(
            item_id="i0",
            worker_id=f"w{n}",
            scores=tuple(FinishedScore(system, 1.0) for system in order),
            started_at=T0,
            submitted_at=T0,
            task_external_id="unit-1",
        )
        for n, order in enumerate((("s0", "s1"), ("s1", "s0")))
    ]
    assert judgements_store_finished(campaign=campaign, criterion=criterion, judgements=same) == 2
    assert Task.objects.filter(criterion=criterion).count() == 1
    other = [
        FinishedJudgement(
            item_id="i0",
            worker_id=f"w{n}",
            scores=tuple(FinishedScore(system, 1.0) for system in order),
            started_at=T0,
            submitted_at=T0,
            task_external_id="unit-2",
        )
        for n, order in enumerate((("s0", "s1"), ("s0", "s2")))
    ]
    with pytest.raises(DomainError, match="different systems"):
        judgements_store_finished(campaign=campaign, criterion=criterion, judgements=other)
    assert Task.objects.filter(criterion=criterion).count() == 1


def test_a_system_shown_twice_in_one_judgement_is_refused() -> None:
    campaign, criterion = _setup(1)
    twice = [_judged("i0", "w0", ("s0", "s0", "s1"))]
    with pytest.raises(DomainError, match="shows system 's0' twice"):
        judgements_store_finished(campaign=campaign, criterion=criterion, judgements=twice)
    assert not Task.objects.filter(criterion=criterion).exists()
