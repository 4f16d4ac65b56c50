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


def test_a_table_that_took_many_rows_is_analysed_once_the_import_commits(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:
    """PostgreSQL plans with the table's statistics: after a large ``COPY`` they are
    brought up to date at commit (``pg_class.reltuples`` counts the new rows), not left
    to autovacuum. Fewer rows than the threshold schedule nothing."""
    if connection.vendor != "postgresql":
        pytest.skip("ANALYZE after COPY is PostgreSQL's (SQLite's INSERTs need no statistics)")
    from annotations.services import bulk

    monkeypatch.setattr(bulk, "ANALYZE_AFTER_ROWS", 300)
    campaign = CampaignFactory()

    def reltuples() -> float:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT reltuples FROM pg_class WHERE relname = %s", [Item._meta.db_table]
            )
            return float(cursor.fetchone()[0])

    few = [(campaign.pk, f"few{n}", "", n) for n in range(299)]
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        bulk_insert(
            model=Item, fields=("campaign", "external_id", "input", "position"), rows=few, ids=False
        )
    assert callbacks == []
    many = [(campaign.pk, f"item{n}", "", n) for n in range(300)]
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        bulk_insert(
            model=Item,
            fields=("campaign", "external_id", "input", "position"),
            rows=many,
            ids=False,
        )
    assert len(callbacks) == 1
    assert reltuples() == Item.objects.count() == 599
