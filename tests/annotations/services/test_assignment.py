"""Handing out tasks: caps, constraints, expiry, resumption, plans, concurrency."""

from __future__ import annotations

import math
import threading
from datetime import timedelta

import numpy as np
import pytest
from django.db import connection, connections, transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotations.models import Assignment, Campaign, Judgement, JudgementScore, Task, Worker
from annotations.selectors.sessions import session_plan
from annotations.services.assignment import (
    CampaignNotOpen,
    _pick_repeat,
    _regular_candidates,
    page_next_for,
    task_next_for,
)
from annotations.services.expiry import assignments_expire
from annotations.services.judgements import judgement_submit
from annotations.services.orders import order_value, worker_order_key
from tests.annotations.built_campaigns import _page, _scores, built_campaign, live_campaign
from tests.factories import (
    AssignmentFactory,
    CampaignFactory,
    CriterionFactory,
    WorkerFactory,
    task_with_outputs,
)

pytestmark = pytest.mark.django_db


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


def _down_or_up(x: float) -> set[int]:
    return {math.floor(x + 1e-9), math.ceil(x - 1e-9)}


def test_checks_below_one_per_worker_are_not_rounded_away():
    """10% attention checks and 10% repeats of 4 tasks: 0.4 of each per worker. Rounded,
    nobody got any (and the plan page counted 10% of each); now each worker gets one with
    probability 0.4 (seeded per worker), so over the workers the shares are the rates."""
    campaign = live_campaign(tasks_per_worker=4, attention_check_rate=0.1, repeat_rate=0.1)
    plans = [session_plan(campaign=campaign, worker=Worker(pk=pk)) for pk in range(1, 1001)]
    for kind in ("attention", "repeat"):
        per_worker = [plan.count(kind) for plan in plans]
        assert set(per_worker) == {0, 1}
        share = sum(per_worker) / (4 * len(plans))
        assert 0.085 < share < 0.115, (kind, share)  # 0.1; binomial sd of the share 0.004
    again = [session_plan(campaign=campaign, worker=Worker(pk=pk)) for pk in range(1, 1001)]
    assert again == plans  # seeded


def test_session_with_checks_hands_out_attention_and_repeat_tasks():
    campaign = live_campaign(
        tasks_per_worker=6, attention_check_rate=0.34, repeat_rate=0.17, judgements_per_task=3
    )
    for _ in range(8):
        task_with_outputs(campaign=campaign)
    # The plan is seeded by the worker id: a fixed id whose plan can place its repeat
    # (its repeat does not come straight after the one regular task done before it).
    worker = WorkerFactory(campaign=campaign, pk=1000)
    plan = session_plan(campaign=campaign, worker=worker)
    kinds = []
    while (a := task_next_for(worker=worker, campaign=campaign)) is not None:
        kinds.append("repeat" if a.kind == "repeat" else a.task.kind)
        judgement_submit(assignment=a, scores={s: 100 + 10 * s for s in a.display_order})
    assert len(kinds) == 6
    assert kinds.count("attention") == plan.count("attention") == 2
    assert kinds.count("repeat") == plan.count("repeat") == 1


def test_a_repeat_may_follow_its_original_when_an_attention_check_came_between():
    # Plans such as [regular, attention, repeat] depend on the worker's id (the plan's
    # seed); the regular task was not "just done" when an attention check followed it.
    campaign = live_campaign(judgements_per_task=3)
    regular = task_with_outputs(campaign=campaign)
    attention = task_with_outputs(campaign=campaign, kind=Task.Kind.ATTENTION)
    worker = WorkerFactory(campaign=campaign)
    now = timezone.now()
    for i, task in enumerate((regular, attention)):
        AssignmentFactory(
            task=task,
            worker=worker,
            kind=Assignment.Kind.REGULAR,
            state=Assignment.State.SUBMITTED,
            submitted_at=now + timedelta(seconds=i),
        )
    assert _pick_repeat(worker=worker, rng=np.random.default_rng(0)) == regular
    # Straight after its original, still no repeat.
    Assignment.objects.filter(task=attention).delete()
    assert _pick_repeat(worker=worker, rng=np.random.default_rng(0)) is None


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


def test_together_hands_out_every_criterion_of_a_group_at_once():
    campaign = built_campaign(setup="together", judgements_per_task=1, tasks_per_worker=2)
    worker = WorkerFactory(campaign=campaign)
    lead = task_next_for(worker=worker, campaign=campaign)
    assert lead is not None and lead.criterion.name == "quality"
    page = _page(lead)
    assert [a.criterion.name for a in page] == ["quality", "naturalness"]
    assert len({a.task.group for a in page}) == 1 and len({a.item_id for a in page}) == 1
    assert len({tuple(a.display_order) for a in page}) == 1
    assert Assignment.objects.filter(worker=worker).count() == 2
    # A refresh resumes the whole page.
    again = task_next_for(worker=worker, campaign=campaign)
    assert again is not None and again.pk == lead.pk
    assert Assignment.objects.filter(worker=worker, state="active").count() == 2
    # Another worker gets another group: judgements_per_task counts every task of it.
    other = task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign)
    assert other is not None and other.task.group != lead.task.group


def test_together_counts_pages_against_tasks_per_worker_and_progress():
    from annotations.selectors.sessions import worker_progress
    from annotations.services.judgements import judgements_submit_page

    campaign = built_campaign(setup="together", tasks_per_worker=2)
    worker = WorkerFactory(campaign=campaign)
    for done in range(2):
        lead = task_next_for(worker=worker, campaign=campaign)
        assert lead is not None
        page = _page(lead)
        judgements_submit_page(assignments=page, scores=_scores(page))
        assert worker_progress(worker=worker, campaign=campaign).done == done + 1
    assert task_next_for(worker=worker, campaign=campaign) is None
    assert Judgement.objects.filter(worker=worker).count() == 4


@pytest.mark.parametrize("setup", ["separate", "together"])
def test_the_pages_done_the_hand_out_counts_are_the_progress_bars(setup):
    # The task page shows the hand-out's own count (one statement less per fetch); it must
    # be the count the progress selector gives, at every step of a session.
    from annotations.selectors.sessions import worker_progress
    from annotations.services.judgements import judgements_submit_page

    campaign = built_campaign(setup=setup, tasks_per_worker=3)
    worker = WorkerFactory(campaign=campaign)
    for done in range(3):
        for _ in range(2):  # a new page, then the same page again (resumed)
            found = page_next_for(worker=worker, campaign=campaign)
            assert found.assignment is not None
            if found.pages_done is not None:
                assert found.pages_done == done
            assert worker_progress(worker=worker, campaign=campaign).done == done
        assert found.assignment is not None
        page = _page(found.assignment)
        judgements_submit_page(assignments=page, scores=_scores(page))
    over = page_next_for(worker=worker, campaign=campaign)
    assert over.assignment is None and over.pages_done == 3


def test_together_expired_page_is_renewed_or_given_away_as_a_whole():
    campaign = built_campaign(setup="together", judgements_per_task=1, n_items=1, k=4)
    first, second = WorkerFactory(campaign=campaign), WorkerFactory(campaign=campaign)
    lead = task_next_for(worker=first, campaign=campaign)
    assert lead is not None
    later = timezone.now() + timedelta(minutes=campaign.assignment_timeout_minutes + 1)
    # Time ran out and nobody took the places: the same page comes back, all of it.
    again = task_next_for(worker=first, campaign=campaign, now=later)
    assert again is not None and again.pk == lead.pk
    assert Assignment.objects.filter(worker=first, state="active").count() == 2
    # Ran out again; another worker takes the group; the first one's page expires whole.
    latest = later + timedelta(minutes=campaign.assignment_timeout_minutes + 1)
    taken = task_next_for(worker=second, campaign=campaign, now=latest)
    assert taken is not None and taken.task.group == lead.task.group
    assert task_next_for(worker=first, campaign=campaign, now=latest) is None
    assert Assignment.objects.filter(worker=first, state="expired").count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="Row locks (SELECT ... FOR UPDATE SKIP LOCKED) need PostgreSQL; SQLite serialises writes.",
)
def test_many_threads_claim_whole_groups_on_postgresql():
    from annotations.services.judgements import judgements_submit_page

    campaign = built_campaign(
        n_systems=4,
        n_items=5,
        k=2,
        criteria=("quality", "naturalness"),
        setup="together",
        judgements_per_task=3,
        tasks_per_worker=3,
    )
    workers = [WorkerFactory(campaign=campaign) for _ in range(12)]
    barrier = threading.Barrier(len(workers))
    errors: list[BaseException] = []

    def work(worker: Worker) -> None:
        try:
            barrier.wait()
            while (lead := task_next_for(worker=worker, campaign=campaign)) is not None:
                page = _page(lead)
                assert len(page) == 2
                judgements_submit_page(assignments=page, scores=_scores(page))
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
    # 10 groups x 3 judgements each: 30 pages, exactly what 12 workers x 3 pages can hold.
    for task in Task.objects.filter(campaign=campaign):
        assert Judgement.objects.filter(task=task).count() <= 3
    per_group: dict[tuple[int, int | None], set[int]] = {}
    for worker_id, group, criterion_id in Judgement.objects.values_list(
        "worker_id", "task__group", "criterion_id"
    ):
        per_group.setdefault((worker_id, group), set()).add(criterion_id)
    # Every page was judged on both criteria by the same worker.
    assert all(len(c) == 2 for c in per_group.values())
    assert Judgement.objects.count() == 2 * len(per_group) == 2 * 30


# Item order: per worker, seeded; not the same item twice in a row --------------------------


def _order_of(worker: Worker, campaign: Campaign) -> list[tuple[int, int]]:
    seen = []
    while (a := task_next_for(worker=worker, campaign=campaign)) is not None:
        seen.append((a.item_id, a.criterion_id))
        judgement_submit(assignment=a, scores={s: 100 for s in a.display_order})
    return seen


def test_item_order_is_per_worker_and_reproducible():
    campaign = built_campaign(
        n_systems=2, n_items=12, criteria=("quality",), judgements_per_task=5, tasks_per_worker=12
    )
    workers = [WorkerFactory(campaign=campaign) for _ in range(4)]
    orders = [_order_of(w, campaign) for w in workers]
    assert all(sorted(o) == sorted(orders[0]) for o in orders)
    assert len({tuple(o) for o in orders}) == 4  # 12! orders: four equal ones never happen
    # The same worker gets the same order again (the seed is task_seed and the worker).
    Judgement.objects.filter(worker=workers[0]).delete()
    Assignment.objects.filter(worker=workers[0]).delete()
    assert _order_of(workers[0], campaign) == orders[0]
    # Older code handed every worker the tasks in design order.
    numbers = [
        [Task.objects.get(item_id=i, criterion_id=c, kind="regular").number for i, c in order]
        for order in orders
    ]
    assert any(n != sorted(n) for n in numbers)


def test_the_scan_orders_by_the_windows_value():
    """The fallback scan computes the order in SQL (products up to 2**62) as the indexed
    window does in Python."""
    campaign = built_campaign(n_systems=2, n_items=6, criteria=("quality", "naturalness"))
    worker = WorkerFactory(campaign=campaign)
    key = worker_order_key(campaign=campaign, worker=worker)
    rows = [
        (task.item_id, task.criterion_id, getattr(task, "order_key"))  # noqa: B009 (annotated)
        for task in _regular_candidates(campaign=campaign, worker=worker, now=timezone.now())
    ]
    assert len(rows) == 12
    assert all(
        value == order_value(key=key, item_id=item, criterion_id=criterion)
        for item, criterion, value in rows
    )
    assert max(value for _, _, value in rows) > 2**31 // 2  # the product really is reduced


def _candidates(worker: Worker, campaign: Campaign) -> set[int]:
    """Items of every regular task the worker could be given now (brute force)."""
    seen = set(
        Assignment.objects.filter(worker=worker, kind="regular").values_list(
            "item_id", "criterion_id"
        )
    )
    items = set()
    for task in Task.objects.filter(campaign=campaign, kind="regular"):
        held = (
            Assignment.objects.filter(task=task, kind="regular")
            .filter(state__in=["submitted", "active"])
            .count()
        )
        if (task.item_id, task.criterion_id) not in seen and held < campaign.judgements_per_task:
            items.add(task.item_id)
    return items


@settings(
    max_examples=15,
    deadline=None,
    database=None,  # no .hypothesis folder in the working tree; seeds come from @given
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    n_items=st.integers(1, 4),
    n_criteria=st.integers(1, 3),
    jpt=st.integers(1, 2),
    n_workers=st.integers(1, 3),
    seed=st.integers(0, 2**32),
)
def test_the_same_item_is_not_shown_twice_in_a_row_when_another_is_left(
    n_items, n_criteria, jpt, n_workers, seed
):
    with transaction.atomic():
        campaign = built_campaign(
            n_systems=2,
            n_items=n_items,
            criteria=("quality", "naturalness", "informativeness")[:n_criteria],
            seed=seed,
            judgements_per_task=jpt,
            tasks_per_worker=n_items * n_criteria,
        )
        workers = [WorkerFactory(campaign=campaign) for _ in range(n_workers)]
        last: dict[int, int] = {}
        # Workers take turns, so other workers' progress shapes what is left.
        active = list(workers)
        while active:
            for worker in list(active):
                options = _candidates(worker, campaign)
                a = task_next_for(worker=worker, campaign=campaign)
                if a is None:
                    assert not options
                    active.remove(worker)
                    continue
                if worker.pk in last and a.item_id == last[worker.pk]:
                    assert options == {a.item_id}, "another item was available"
                last[worker.pk] = a.item_id
                judgement_submit(assignment=a, scores={s: 100 for s in a.display_order})
        transaction.set_rollback(True)


# Crowd scale: 200 clients at once on PostgreSQL -------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="Row locks (SELECT ... FOR UPDATE SKIP LOCKED) need PostgreSQL; SQLite serialises writes.",
)
def test_two_hundred_clients_fill_every_place_once_on_postgresql():
    # 200 workers arrive together and want 2 tasks each (400 hand-outs) for 60 x 3 = 180
    # places. They share 40 connections at a time, as workers behind a server with a
    # connection pool do (PostgreSQL's default limit is 100 connections).
    campaign = live_campaign(judgements_per_task=3, tasks_per_worker=2)
    tasks = [task_with_outputs(campaign=campaign, number=n) for n in range(60)]
    workers = [WorkerFactory(campaign=campaign) for _ in range(200)]
    barrier = threading.Barrier(len(workers))
    pool = threading.BoundedSemaphore(40)
    errors: list[BaseException] = []
    turned_away: list[int] = []

    def work(worker: Worker) -> None:
        try:
            barrier.wait()
            while True:
                with pool:
                    try:
                        a = task_next_for(worker=worker, campaign=campaign)
                        if a is not None:
                            judgement_submit(
                                assignment=a, scores={s: 50 + s for s in a.display_order}
                            )
                    finally:
                        connections.close_all()
                if a is None:
                    turned_away.append(worker.pk)
                    return
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=work, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(turned_away) == 200
    # Every place filled exactly once: none lost, none over-assigned, no repeats.
    for task in Task.objects.filter(pk__in=[t.pk for t in tasks]):
        assert Judgement.objects.filter(task=task).count() == 3
        assert task.places_held == 3
    assert Judgement.objects.count() == Assignment.objects.count() == 180
    pairs = list(Judgement.objects.values_list("worker_id", "task_id"))
    assert len(pairs) == len(set(pairs))
    assert max(Judgement.objects.filter(worker=w).count() for w in workers) <= 2
    assert Assignment.objects.filter(state="active").count() == 0


def test_hand_out_runs_the_same_queries_whatever_the_campaign_size():
    from django.test.utils import CaptureQueriesContext

    counts = []
    for n_tasks in (70, 140):
        campaign = live_campaign(judgements_per_task=3, tasks_per_worker=5)
        for n in range(n_tasks):
            task_with_outputs(campaign=campaign, number=n)
        task_next_for(worker=WorkerFactory(campaign=campaign), campaign=campaign)  # warm
        worker = WorkerFactory(campaign=campaign)
        with CaptureQueriesContext(connection) as captured:
            assert task_next_for(worker=worker, campaign=campaign) is not None
        counts.append(len(captured))
    # A small bound on statements, never one per task of the campaign. (The window is
    # read from the worker's seeded start id and, when that part is short, once more
    # from the lowest id: 17 or 18 statements, by where the start falls.)
    assert max(counts) <= 18


@given(
    seed=st.integers(0, 2**62),
    worker_id=st.integers(1, 10**6),
    n=st.integers(3, 12),
    attention=st.sampled_from([0.0, 0.1, 0.2, 0.34, 0.5]),
    repeat=st.sampled_from([0.1, 0.17, 0.25, 0.34]),
)
def test_every_planned_repeat_has_an_earlier_task_it_may_repeat(
    seed, worker_id, n, attention, repeat
):
    # A repeat may not repeat the task done just before it (_pick_repeat), so it needs a
    # regular task earlier than that. Plans like [attention, regular, repeat] used to
    # leave the repeat nothing to repeat, for some worker ids.
    campaign = Campaign(
        task_seed=seed, tasks_per_worker=n, attention_check_rate=attention, repeat_rate=repeat
    )  # unsaved: the plan reads only these fields and the worker's id
    plan = session_plan(campaign=campaign, worker=Worker(pk=worker_id))
    n_repeat = plan.count("repeat")
    assert n_repeat in {min(k, max(0, n - 2)) for k in _down_or_up(n * repeat)}
    assert plan.count("attention") in {min(k, n - n_repeat) for k in _down_or_up(n * attention)}
    for p, kind in enumerate(plan):
        if kind == "repeat" and "regular" in plan[:p]:
            assert "regular" in plan[: p - 1], plan


def test_an_attention_check_is_of_the_workers_own_criterion():
    """Set-up 2: the campaign's only prepared check is a quality task; a worker whose
    tasks are all informativeness gets a check made from an informativeness task."""
    from annotations.services.assignment import _pick_attention
    from annotations.services.quality import attention_task_create

    campaign = live_campaign(tasks_per_worker=4)
    quality = CriterionFactory(campaign=campaign, name="quality")
    informativeness = CriterionFactory(campaign=campaign, name="informativeness")
    quality_task = task_with_outputs(campaign=campaign, criterion=quality)
    attention_task_create(task=quality_task, rng=np.random.default_rng(0))
    mine = [task_with_outputs(campaign=campaign, criterion=informativeness) for _ in range(3)]
    worker = WorkerFactory(campaign=campaign)
    AssignmentFactory(worker=worker, task=mine[0])
    for seed in range(5):
        check = _pick_attention(campaign=campaign, worker=worker, rng=np.random.default_rng(seed))
        assert check is not None and check.kind == Task.Kind.ATTENTION
        assert check.criterion_id == informativeness.pk
    # a worker with no task yet may get any criterion's check
    newcomer = WorkerFactory(campaign=campaign)
    assert _pick_attention(campaign=campaign, worker=newcomer, rng=np.random.default_rng(0))
