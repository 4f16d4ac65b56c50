"""common.queries.row_or_none: the row picked by a unique key, or None, with no ORDER BY."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotations.models import Worker
from common.queries import row_or_none
from tests.factories import WorkerFactory

pytestmark = pytest.mark.django_db


def test_the_row_by_its_key_without_an_order_by() -> None:
    worker = WorkerFactory()
    with CaptureQueriesContext(connection) as context:
        found = row_or_none(Worker.objects.filter(pk=worker.pk))
    assert found == worker
    (query,) = context.captured_queries
    assert "ORDER BY" not in query["sql"]  # Worker's Meta.ordering is dropped too


def test_none_when_no_row_matches() -> None:
    assert row_or_none(Worker.objects.filter(pk=-1)) is None
