"""The raw bulk inserter (annotations.services.bulk.bulk_insert)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from annotations.models import Item, System
from annotations.services.bulk import bulk_insert
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_rows_nobody_refers_to_are_numbered_by_the_database() -> None:
    """``ids=False``: no ids drawn one by one (PostgreSQL numbers the rows itself), the
    rows are all there with distinct ids, and the table's numbering goes on after them."""
    campaign = CampaignFactory()
    rows = [(campaign.pk, f"item{n}", f"input {n}", n) for n in range(2500)]
    with transaction.atomic(), CaptureQueriesContext(connection) as context:
        returned = bulk_insert(
            model=Item,
            fields=("campaign", "external_id", "input", "position"),
            rows=rows,
            ids=False,
        )
    assert returned == []
    sql = " ".join(q["sql"] for q in context.captured_queries)
    if connection.vendor == "postgresql":
        assert "nextval" not in sql and "generate_series" not in sql
    stored = list(campaign.items.order_by("position").values_list("id", "external_id"))
    assert [ext for _, ext in stored] == [f"item{n}" for n in range(2500)]
    assert len({pk for pk, _ in stored}) == 2500
    later = Item.objects.create(campaign=campaign, external_id="later", input="")
    assert later.pk > max(pk for pk, _ in stored)


def test_ids_are_returned_in_row_order_when_asked() -> None:
    campaign = CampaignFactory()
    with transaction.atomic():
        ids = bulk_insert(
            model=System,
            fields=("campaign", "label"),
            rows=[(campaign.pk, f"s{n}") for n in range(7)],
        )
    assert dict(System.objects.filter(pk__in=ids).values_list("pk", "label")) == {
        pk: f"s{n}" for n, pk in enumerate(ids)
    }


def _reltuples(model) -> float:
    """The rows PostgreSQL's statistics count in ``model``'s table (-1: never analysed)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [model._meta.db_table])
        return float(cursor.fetchone()[0])


def _analyzed_now(*models) -> None:
    """Statistics of these tables as they stand (their rows in this test: none yet)."""
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def test_a_table_an_import_grew_is_analysed_once_it_commits(
    django_capture_on_commit_callbacks,
) -> None:
    """PostgreSQL plans with a table's statistics: a table that an import grew by
    autovacuum's threshold (50 rows plus 10% of the rows its statistics count) is
    analysed at commit, not left to autovacuum. It used to take 10,000 rows: the released
    E2E ratings (7,218 judgements) left their tables unanalysed, and a ranking's reads
    of them ran 10-50x slower (nested loops over tables taken for empty)."""
    if connection.vendor != "postgresql":
        pytest.skip("ANALYZE after a bulk write is PostgreSQL's (SQLite plans without it)")
    campaign = CampaignFactory()
    _analyzed_now(Item)
    before = Item.objects.count()

    def insert(n: int, tag: str) -> list:
        with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
            bulk_insert(
                model=Item,
                fields=("campaign", "external_id", "input", "position"),
                rows=[(campaign.pk, f"{tag}{k}", "", k) for k in range(n)],
                ids=False,
            )
        return callbacks

    assert insert(49, "few")  # decided at commit: 49 rows on 0 counted, under 50
    assert _reltuples(Item) == 0.0 and Item.objects.count() == before + 49
    assert insert(600, "many")  # 600 rows on 0 counted: analysed
    assert _reltuples(Item) == Item.objects.count() == before + 649
    counted = _reltuples(Item)
    insert(int(50 + 0.1 * counted) - 1, "more")  # one row short of the threshold
    assert _reltuples(Item) == counted
    insert(int(50 + 0.1 * counted) + 1, "yet")  # past it
    assert _reltuples(Item) == Item.objects.count()


def test_a_transactions_writes_to_a_table_are_summed_and_decided_once(
    django_capture_on_commit_callbacks,
) -> None:
    """Several bulk writes to one table in one transaction (a design writes each
    criterion's tasks in turn) count together and give one decision at commit: two
    writes of 30 rows pass the threshold of 50 that neither passes alone, and one
    ``ANALYZE`` runs, not one per write."""
    if connection.vendor != "postgresql":
        pytest.skip("ANALYZE after a bulk write is PostgreSQL's (SQLite plans without it)")
    campaign = CampaignFactory()
    _analyzed_now(Item)
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        transaction.atomic(),
    ):
        for part in ("a", "b"):
            bulk_insert(
                model=Item,
                fields=("campaign", "external_id", "input", "position"),
                rows=[(campaign.pk, f"{part}{k}", "", k) for k in range(30)],
                ids=False,
            )
    assert len(callbacks) == 1
    assert [q["sql"] for q in queries.captured_queries if q["sql"].startswith("ANALYZE")] == [
        'ANALYZE "annotations_item"'
    ]
    assert _reltuples(Item) == Item.objects.count()


def test_tasks_a_design_writes_are_analysed_once_it_commits(
    django_capture_on_commit_callbacks,
) -> None:
    """The tasks and their outputs a campaign's design writes (the ORM's bulk create,
    which never analysed) have statistics when the design commits: the first hand-outs
    after a launch plan with them."""
    if connection.vendor != "postgresql":
        pytest.skip("ANALYZE after a bulk write is PostgreSQL's (SQLite plans without it)")
    from annotations.models import Task, TaskOutput
    from tests.ranking.adaptive_data import adaptive_campaign

    _analyzed_now(Task, TaskOutput)
    with django_capture_on_commit_callbacks(execute=True):
        campaign = adaptive_campaign(items=60)
    tasks = Task.objects.filter(campaign=campaign).count()
    assert tasks >= 50
    assert _reltuples(Task) == Task.objects.count()
    assert _reltuples(TaskOutput) == TaskOutput.objects.count()


@pytest.mark.django_db(transaction=True)
def test_small_committed_writes_add_up_to_the_threshold() -> None:
    """Small writes that each stay under the threshold are counted by PostgreSQL since
    the table's last ``ANALYZE`` (committed); a later write decides on them too, so
    trickles of appends get statistics where autovacuum is off or slow."""
    if connection.vendor != "postgresql":
        pytest.skip("ANALYZE after a bulk write is PostgreSQL's (SQLite plans without it)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_proc WHERE proname = 'pg_stat_force_next_flush'")
        if cursor.fetchone() is None:
            pytest.skip("needs PostgreSQL 15 (pg_stat_force_next_flush) to read the counts")
    campaign = CampaignFactory()
    _analyzed_now(Item)

    def append(n: int, tag: str) -> None:
        # a real commit: the write's counts are reported as it commits (PostgreSQL 15)
        with transaction.atomic():
            bulk_insert(
                model=Item,
                fields=("campaign", "external_id", "input", "position"),
                rows=[(campaign.pk, f"{tag}{k}", "", k) for k in range(n)],
                ids=False,
            )

    append(30, "a")
    assert _reltuples(Item) == 0.0  # 30 of 50
    append(25, "b")  # 25 written + 30 counted since the last ANALYZE
    assert _reltuples(Item) == Item.objects.count() == 55
    # The write's counts were reported at its commit, before its ANALYZE: none are left
    # to count as changes since it (autovacuum would analyse the table again for them).
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT 1")  # idle in between: whatever this backend holds is reported
        cursor.execute(
            "SELECT n_mod_since_analyze FROM pg_stat_user_tables WHERE relname = %s",
            [Item._meta.db_table],
        )
        assert cursor.fetchone()[0] == 0
