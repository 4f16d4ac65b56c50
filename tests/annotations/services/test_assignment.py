"""Handing out tasks: caps, constraints, expiry, resumption, plans, concurrency."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from annotations.models import Assignment, Campaign, Judgement, JudgementScore, Task, Worker
from annotations.services.assignment import (
    CampaignNotOpen,
    assignments_expire,
    session_plan,
    task_next_for,
    worker_get_or_create,
)
from annotations.services.judgements import judgement_submit
from tests.factories import CampaignFactory, CriterionFactory, WorkerFactory, task_with_outputs

pytestmark = pytest.mark.django_db


def live_campaign(**fields) -> Campaign:
    return CampaignFactory(status=Campaign.Status.LIVE, **fields)


def test_worker_get_or_create_is_stable_and_merges_metadata():
    campaign = live_campaign()
    first = worker_get_or_create(
        campaign=campaign, platform="prolific", external_id="P1", metadata={"study_id": "S"}
    )
    again = worker_get_or_create(
        campaign=campaign, platform="prolific", external_id="P1", metadata={"session_id": "X"}
    )
    assert first.pk == again.pk
    again.refresh_from_db()
    assert again.metadata == {"study_id": "S", "session_id": "X"}
    assert Worker.objects.count() == 1


def test_task_is_never_given_beyond_judgements_per_task():
    campaign = live_campaign(judgements_per_task=2)
    task = task_with_outputs(campaign=campaign)
    workers = [WorkerFactory(campaign=campaign) for _ in range(3)]
    got = [task_next_for(worker=w, campaign=campaign) for w in workers]
    assert [a.task_id if a else None for a in got] == [task.pk, task.pk, None]


def test_resume_returns_the_same_assignment():
    campaign = live_campaign()
    task_with_outputs(campaign=campaign)
    task_with_outputs(campaign=campaign)
    worker = WorkerFactory(campaign=campaign)
    first = task_next_for(worker=worker, campaign=campaign)
    second = task_next_for(worker=worker, campaign=campaign)
    assert first is not None and second is not None
    assert first.pk == second.pk
    assert Assignment.objects.filter(worker=worker).count() == 1


def test_worker_never_gets_same_item_under_same_criterion_twice():
    campaign = live_campaign(judgements_per_task=3, tasks_per_worker=5)
    criterion = CriterionFactory(campaign=campaign)
    task = task_with_outputs(campaign=campaign, criterion=criterion)
    # A second task on the same item and criterion (another design block).
    twin = Task.objects.create(
        campaign=campaign, criterion=criterion, item=task.item, kind=Task.Kind.REGULAR, number=1
    )
    for to in task.task_outputs.all():
        twin.task_outputs.create(output=to.output, slot=to.slot)
    worker = WorkerFactory(campaign=campaign)
    a = task_next_for(worker=worker, campaign=campaign)
    assert a is not None
    judgement_submit(assignment=a, scores={0: 100, 1: 90, 2: 10})
    assert task_next_for(worker=worker, campaign=campaign) is None


def test_tasks_per_worker_cap_and_display_order_is_a_permutation():
    campaign = live_campaign(tasks_per_worker=2)
    for _ in range(4):
        task_with_outputs(campaign=campaign)
    worker = WorkerFactory(campaign=campaign)
    for _ in range(2):
        a = task_next_for(worker=worker, campaign=campaign)
        assert a is not None
        assert sorted(a.display_order) == [0, 1, 2]
        judgement_submit(assignment=a, scores={0: 100, 1: 50, 2: 200})
    assert task_next_for(worker=worker, campaign=campaign) is None
    assert Judgement.objects.filter(worker=worker).count() == 2


def test_imported_tasks_are_never_handed_out():
    campaign = live_campaign()
    task_with_outputs(campaign=campaign, kind=Task.Kind.IMPORTED)
    assert task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign) is None


def test_expired_assignment_frees_its_place():
    campaign = live_campaign(judgements_per_task=1, assignment_timeout_minutes=5)
    task = task_with_outputs(campaign=campaign)
    slow, other = WorkerFactory(campaign=campaign), WorkerFactory(campaign=campaign)
    start = timezone.now()
    held = task_next_for(worker=slow, campaign=campaign, now=start)
    assert held is not None and held.task_id == task.pk
    assert task_next_for(worker=other, campaign=campaign, now=start) is None
    later = start + timedelta(minutes=6)
    taken = task_next_for(worker=other, campaign=campaign, now=later)
    assert taken is not None and taken.task_id == task.pk
    assert assignments_expire(campaign=campaign, now=later) == 1
    assert Assignment.objects.get(worker=slow).state == Assignment.State.EXPIRED


def test_expired_assignment_is_renewed_for_its_worker_when_place_is_free():
    campaign = live_campaign(judgements_per_task=1, assignment_timeout_minutes=5)
    task_with_outputs(campaign=campaign)
    worker = WorkerFactory(campaign=campaign)
    start = timezone.now()
    first = task_next_for(worker=worker, campaign=campaign, now=start)
    later = start + timedelta(minutes=10)
    again = task_next_for(worker=worker, campaign=campaign, now=later)
    assert first is not None and again is not None
    assert again.pk == first.pk
    assert again.expires_at == later + timedelta(minutes=5)


def test_closed_campaign_hands_out_nothing():
    campaign = CampaignFactory(status=Campaign.Status.CLOSED)
    task_with_outputs(campaign=campaign)
    with pytest.raises(CampaignNotOpen):
        task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign)


def test_stopped_worker_gets_nothing():
    campaign = live_campaign()
    task_with_outputs(campaign=campaign)
    assert (
        task_next_for(worker=WorkerFactory(campaign=campaign, stopped=True), campaign=campaign)
        is None
    )


def test_session_plan_places_checks_by_rate_and_is_seeded():
    campaign = live_campaign(tasks_per_worker=10, attention_check_rate=0.2, repeat_rate=0.1)
    worker = WorkerFactory(campaign=campaign)
    plan = session_plan(campaign=campaign, worker=worker)
    assert plan.count("attention") == 2
    assert plan.count("repeat") == 1
    assert "repeat" not in plan[:2]
    assert plan == session_plan(campaign=campaign, worker=worker)


def test_session_with_checks_hands_out_attention_and_repeat_tasks():
    campaign = live_campaign(
        tasks_per_worker=6, attention_check_rate=0.34, repeat_rate=0.17, judgements_per_task=3
    )
    for _ in range(8):
        task_with_outputs(campaign=campaign)
    worker = WorkerFactory(campaign=campaign)
    plan = session_plan(campaign=campaign, worker=worker)
    kinds = []
    while (a := task_next_for(worker=worker, campaign=campaign)) is not None:
        kinds.append("repeat" if a.kind == "repeat" else a.task.kind)
        judgement_submit(assignment=a, scores={s: 100 + 10 * s for s in a.display_order})
    assert len(kinds) == 6
    assert kinds.count("attention") == plan.count("attention") == 2
    assert kinds.count("repeat") == plan.count("repeat") == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="Row locks (SELECT ... FOR UPDATE SKIP LOCKED) need PostgreSQL; SQLite serialises writes.",
)
def test_many_threads_claim_and_submit_at_once_on_postgresql():
    campaign = live_campaign(judgements_per_task=3, tasks_per_worker=4)
    tasks = [task_with_outputs(campaign=campaign) for _ in range(10)]
    workers = [WorkerFactory(campaign=campaign) for _ in range(16)]
    barrier = threading.Barrier(len(workers))
    errors: list[BaseException] = []

    def work(worker: Worker) -> None:
        try:
            barrier.wait()
            while (a := task_next_for(worker=worker, campaign=campaign)) is not None:
                scores = {s: 50 + s for s in a.display_order}
                # A double submit from two threads at once records one judgement.
                twin = threading.Thread(target=_submit_quietly, args=(a, scores, errors))
                twin.start()
                judgement_submit(assignment=a, scores=scores)
                twin.join()
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for task in tasks:
        assert Assignment.objects.filter(task=task).count() == 3
        assert Judgement.objects.filter(task=task).count() == 3
    assert Judgement.objects.count() == 30
    assert JudgementScore.objects.count() == 30 * 3
    for worker in workers:
        assert Judgement.objects.filter(worker=worker).count() <= 4
        assert Assignment.objects.filter(worker=worker, state="active").count() == 0
    # No worker judged the same task twice.
    pairs = list(Judgement.objects.values_list("worker_id", "task_id"))
    assert len(pairs) == len(set(pairs))


def _submit_quietly(assignment: Assignment, scores: dict[int, float], errors: list) -> None:
    try:
        judgement_submit(assignment=assignment, scores=scores)
    except BaseException as error:
        errors.append(error)
    finally:
        connections.close_all()


def test_display_order_is_randomised_per_assignment_and_stable_on_resume():
    campaign = live_campaign(judgements_per_task=60)
    task = task_with_outputs(
        campaign=campaign, texts=tuple(f"Output text number {i}." for i in range(5))
    )
    orders = []
    for _ in range(60):
        worker = WorkerFactory(campaign=campaign)
        a = task_next_for(worker=worker, campaign=campaign)
        assert a is not None and a.task_id == task.pk
        assert sorted(a.display_order) == [0, 1, 2, 3, 4]
        again = task_next_for(worker=worker, campaign=campaign)
        assert again is not None and again.display_order == a.display_order
        orders.append(tuple(a.display_order))
    # 60 draws among 120 orders: fewer than 20 distinct ones is vanishingly unlikely.
    assert len(set(orders)) > 20
    # Each output is shown first to some worker (probability of missing one < 5 * 0.8**60).
    assert {o[0] for o in orders} == {0, 1, 2, 3, 4}
