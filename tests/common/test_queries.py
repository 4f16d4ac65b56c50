"""common.queries.prepared: a queryset compiled once per connection, run with new values.

The rows must be what the queryset itself gives (model rows with their related rows,
values, converters applied) for every value, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.db.models import QuerySet
from django.db.models.functions import Now
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from annotations.models import Assignment, JudgementScore, Task, TaskOutput, Worker
from common.queries import (
    PreparedInsert,
    PreparedQuery,
    PreparedUpdate,
    _server_statement,
    prepared,
    prepared_update,
)
from tests.factories import (
    AssignmentFactory,
    CampaignFactory,
    TaskFactory,
    WorkerFactory,
    judgement_of,
    task_with_outputs,
)

pytestmark = pytest.mark.django_db

builds: list[tuple[Any, ...]] = []


@prepared(worker_id=int, slug=str)
def worker_with_campaign(worker_id: int, slug: str) -> QuerySet[Worker]:
    builds.append((worker_id, slug))
    return Worker.objects.select_related("campaign").filter(pk=worker_id, campaign__slug=slug)


@prepared(task_id=int, now=datetime)
def due_by(
    late: bool, *, task_id: int, now: datetime
) -> QuerySet[Assignment, tuple[int, datetime | None, Any]]:
    lookup = "expires_at__lte" if late else "expires_at__gt"
    return (
        Assignment.objects.filter(task_id=task_id, **{lookup: now})
        .order_by("id")
        .values_list("id", "expires_at", "display_order")
    )


@prepared(campaign_id=int)
def task_numbers(*, campaign_id: int) -> QuerySet[Task, int]:
    return (
        Task.objects.filter(campaign_id=campaign_id)
        .order_by("number")
        .values_list("number", flat=True)
    )


def test_model_rows_with_their_related_rows_for_each_value() -> None:
    first, second = WorkerFactory(), WorkerFactory()
    for worker in (first, second, first):
        (found,) = worker_with_campaign(worker_id=worker.pk, slug=worker.campaign.slug)
        assert found == worker and found.external_id == worker.external_id
        with CaptureQueriesContext(connection) as context:
            assert found.campaign == worker.campaign  # read with the worker
        assert context.captured_queries == []
    assert worker_with_campaign(worker_id=first.pk, slug=second.campaign.slug) == []


def test_compiled_once_per_connection_then_one_statement_per_call() -> None:
    worker = WorkerFactory()
    worker_with_campaign(worker_id=worker.pk, slug=worker.campaign.slug)
    builds.clear()
    with CaptureQueriesContext(connection) as context:
        for _ in range(3):
            worker_with_campaign(worker_id=worker.pk, slug=worker.campaign.slug)
    assert builds == []  # not built again
    assert len(context.captured_queries) == 3


def test_datetime_values_and_converted_columns_match_the_queryset() -> None:
    task = TaskFactory()
    now = timezone.now()
    for minutes in (-5, 5, 10):
        AssignmentFactory(
            task=task, expires_at=now + timedelta(minutes=minutes), display_order=[2, 0, 1]
        )
    for late in (True, False):
        for at in (now, now + timedelta(minutes=7)):
            lookup = "expires_at__lte" if late else "expires_at__gt"
            expected = list(
                Assignment.objects.filter(task_id=task.pk, **{lookup: at})
                .order_by("id")
                .values_list("id", "expires_at", "display_order")
            )
            assert due_by(late, task_id=task.pk, now=at) == expected
    # The JSON column comes back as a list, not as text, on both databases.
    assert due_by(False, task_id=task.pk, now=now)[0][2] == [2, 0, 1]


def test_flat_values() -> None:
    campaign = CampaignFactory()
    for number in (3, 1, 2):
        TaskFactory(campaign=campaign, number=number)
    assert task_numbers(campaign_id=campaign.pk) == [1, 2, 3]
    assert task_numbers(campaign_id=campaign.pk + 1000) == []


def test_a_value_the_sql_does_not_carry_as_given_is_refused_with_its_name() -> None:
    contains = PreparedQuery(
        lambda *, slug: Worker.objects.filter(campaign__slug__contains=slug), slug=str
    )
    with pytest.raises(ValueError, match="not a parameter as given"):
        contains(slug="x")
    with pytest.raises(TypeError, match="int, str or datetime"):
        PreparedQuery(lambda *, ids: Worker.objects.filter(pk__in=ids), ids=list)
    with pytest.raises(TypeError, match="takes"):
        task_numbers(campaign=1)


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_as_django_refuses_it() -> None:
    locking = PreparedQuery(
        lambda *, worker_id: Worker.objects.select_for_update().filter(pk=worker_id),
        worker_id=int,
    )
    worker = WorkerFactory()
    with transaction.atomic():
        assert locking(worker_id=worker.pk) == [worker]
    if connection.features.has_select_for_update:  # PostgreSQL
        with pytest.raises(TransactionManagementError):
            list(Worker.objects.select_for_update().filter(pk=worker.pk))
        with pytest.raises(TransactionManagementError):
            locking(worker_id=worker.pk)
    else:  # SQLite has no row locks: Django runs the query, and so does this
        assert locking(worker_id=worker.pk) == [worker]


@pytest.mark.django_db(transaction=True)
def test_each_thread_compiles_on_its_own_connection() -> None:
    worker = WorkerFactory()
    worker_with_campaign(worker_id=worker.pk, slug=worker.campaign.slug)
    found: list[Any] = []

    def other_thread() -> None:
        try:
            found.extend(worker_with_campaign(worker_id=worker.pk, slug=worker.campaign.slug))
            found.append(vars(connections["default"])["_prepared_queries"])
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert found[0] == worker
    mine = vars(connections["default"])["_prepared_queries"]
    assert found[1] is not mine
    assert (worker_with_campaign, ()) in found[1] and (worker_with_campaign, ()) in mine


@prepared_update(worker_id=int, now=datetime)
def seen(*, worker_id: int, now: datetime) -> tuple[QuerySet[Worker], dict[str, Any]]:
    return Worker.objects.filter(pk=worker_id), {"last_seen_at": now, "flagged": True}


def test_an_update_sets_the_fields_of_the_rows_picked_for_each_value() -> None:
    first, second = WorkerFactory(), WorkerFactory()
    now = timezone.now()
    assert seen(worker_id=first.pk, now=now) == 1
    assert seen(worker_id=second.pk, now=now - timedelta(hours=1)) == 1
    assert seen(worker_id=second.pk + first.pk + 1000, now=now) == 0
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.last_seen_at, first.flagged) == (now, True)
    assert second.last_seen_at == now - timedelta(hours=1) and second.flagged


def test_an_update_across_tables_is_refused() -> None:
    across = PreparedUpdate(
        lambda *, slug: (Worker.objects.filter(campaign__slug=slug), {"flagged": True}),
        slug=str,
    )
    with pytest.raises(ValueError, match="one table"):
        across(slug="x")


assignment_insert = PreparedInsert(Assignment)


def _row(assignment: Assignment) -> dict[str, Any]:
    fields = [f.attname for f in Assignment._meta.concrete_fields]
    return Assignment.objects.filter(pk=assignment.pk).values(*fields).get()


def test_an_insert_writes_the_row_create_writes() -> None:
    task = TaskFactory()
    worker = WorkerFactory(campaign=task.campaign)
    now = timezone.now()
    values = {
        "worker": worker,
        "task": task,
        "item_id": task.item_id,
        "criterion_id": task.criterion_id,
        "display_order": [3, 1, 2],
        "started_at": now,
        "expires_at": now + timedelta(minutes=30),
    }
    made = [assignment_insert(**values)]
    other = WorkerFactory(campaign=task.campaign)
    made.append(assignment_insert(**{**values, "worker": other, "expires_at": None}))
    created = Assignment.objects.create(**{**values, "worker": WorkerFactory()})
    for assignment in made:
        assert assignment.pk is not None and not assignment._state.adding
        assert assignment._state.db == "default"
    first, second, reference = _row(made[0]), _row(made[1]), _row(created)
    for row in (first, second, reference):
        row.pop("id")
        row.pop("worker_id")
    assert first == reference  # defaults (kind, state, draft) and values as create() writes
    assert second == {**reference, "expires_at": None}
    assert Assignment.objects.get(pk=made[0].pk).display_order == [3, 1, 2]


def test_an_insert_refuses_expressions_and_unsaved_related_rows() -> None:
    task = TaskFactory()
    with pytest.raises(ValueError, match="plain values"):
        assignment_insert(task=task, started_at=Now())
    with pytest.raises(ValueError, match="unsaved related object"):
        assignment_insert(
            task=task, worker=Worker(campaign=task.campaign), started_at=timezone.now()
        )
    assert not Assignment.objects.exists()


score_insert = PreparedInsert(JudgementScore)


def test_many_rows_in_one_statement_as_bulk_create_writes_them() -> None:
    task = task_with_outputs()
    judgement = judgement_of(task, WorkerFactory(campaign=task.campaign), [10, 20, 30])
    outputs = list(judgement.scores.values_list("output_id", flat=True))
    judgement.scores.all().delete()
    rows = [
        {"judgement": judgement, "output_id": o, "slot": i, "score": 1.5 * i, "rank": 3.0 - i}
        for i, o in enumerate(outputs)
    ]
    with CaptureQueriesContext(connection) as context:
        made = score_insert.many(rows)
    assert len(context.captured_queries) == 1
    assert len({s.pk for s in made}) == 3 and all(not s._state.adding for s in made)
    stored = {
        s.pk: (s.output_id, s.slot, s.score, s.rank, s.role, s.checks)
        for s in judgement.scores.all()
    }
    assert stored == {
        s.pk: (s.output_id, s.slot, s.score, s.rank, TaskOutput.Role.REGULAR, []) for s in made
    }
    assert score_insert.many([]) == []


# Server-side prepared statements (PostgreSQL) -------------------------------------------


def _server_prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_placeholders_become_numbered_parameters_and_literal_percents_stay() -> None:
    name, prepare, execute = _server_statement("SELECT '%%' || %s WHERE a = %s OR b = %s", 3)
    assert prepare == f"PREPARE {name} AS SELECT '%' || $1 WHERE a = $2 OR b = $3"
    assert execute == f"EXECUTE {name}(%s, %s, %s)"
    assert _server_statement("SELECT '%%' || %s WHERE a = %s OR b = %s", 3)[0] == name
    no_parameters = _server_statement("SELECT 1", 0)
    assert no_parameters[2] == f"EXECUTE {no_parameters[0]}"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="server-side PREPARE is PostgreSQL's")
@pytest.mark.django_db(transaction=True)  # the test closes its connection
def test_on_postgresql_a_prepared_query_is_prepared_once_per_session(settings) -> None:
    settings.HUMANEVAL_PG_SERVER_PREPARE = True
    worker = WorkerFactory()
    with CaptureQueriesContext(connection) as context:
        for _ in range(3):
            (found,) = worker_with_campaign(worker_id=worker.pk, slug=worker.campaign.slug)
            assert found == worker
    # Three statements counted, each an EXECUTE; the PREPARE is not a query of the request.
    assert [q["sql"].split()[0] for q in context.captured_queries] == ["EXECUTE"] * 3
    prepared_now = [
        s for s in _server_prepared() if " AS SELECT " in s and '"annotations_campaign"."slug"' in s
    ]
    assert len(prepared_now) == 1
    # A new session (a reconnection) prepares again, and the query still answers.
    connection.close()
    (found,) = worker_with_campaign(worker_id=worker.pk, slug=worker.campaign.slug)
    assert found == worker


@pytest.mark.skipif(connection.vendor != "postgresql", reason="server-side PREPARE is PostgreSQL's")
def test_with_server_prepare_off_the_sql_runs_as_it_is(settings) -> None:
    settings.HUMANEVAL_PG_SERVER_PREPARE = False
    task = TaskFactory()
    with CaptureQueriesContext(connection) as context:
        assert task_numbers(campaign_id=task.campaign_id) == [task.number]
    assert context.captured_queries[0]["sql"].startswith("SELECT")


def test_the_installed_django_is_one_the_prepared_queries_were_verified_on():
    """A Django upgrade fails here, loudly, until these tests pass on it and it is listed."""
    import django
    from django.core.exceptions import ImproperlyConfigured

    from common import queries

    queries.django_verified(django.VERSION[:2])  # the installed one: no error
    with pytest.raises(ImproperlyConfigured, match=r"verified on 5\.2, not on 6\.0"):
        queries.django_verified((6, 0))
