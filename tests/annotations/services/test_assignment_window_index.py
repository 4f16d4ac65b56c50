"""The hand-out's window read has an index that serves it as a window: every column the
read compares for equality, then ``id`` (the order it walks), so PostgreSQL reads the 64
tasks it needs in index order instead of every task of the level, sorted."""

from __future__ import annotations

import pytest
from django.db.models.lookups import Exact

from annotations.models import Task
from annotations.services import assignment as assignment_services

pytestmark = pytest.mark.django_db


def _equal_columns(led: bool, language: bool) -> set[str]:
    """The task columns the window read (``_at_level``) compares for equality."""
    candidates = assignment_services._Candidates(
        campaign_id=1,
        worker_id=1,
        language="de" if language else None,
        lead_id=1 if led else None,
        avoid_item=None,
        part="all",
    )
    query = (
        assignment_services._candidates(candidates.form, **candidates.values)
        .filter(places_held=0, id__gte=1)
        .order_by("id")
    )
    columns = set()
    for child in query.query.where.children:
        if isinstance(child, Exact) and getattr(child.lhs, "alias", None) == Task._meta.db_table:
            columns.add(child.lhs.target.column)
    assert query.query.order_by == ("id",)
    return columns


@pytest.mark.parametrize("led", [False, True], ids=["every criterion", "one criterion"])
def test_the_window_read_has_an_index_of_its_equalities_then_id(led):
    """A worker given one criterion (set-up 2 with several criteria, set-up 1's lead):
    without the criterion in the index, PostgreSQL read the level's tasks of every
    criterion and sorted them (about 4 ms a read on a 6,300-task campaign, two reads a
    hand-out; ``benchmarks.load --per-request`` shows PostgreSQL's CPU per request)."""
    equal = _equal_columns(led, language=False)
    assert {"campaign_id", "kind", "places_held"} <= equal
    assert ("criterion_id" in equal) == led
    column = {field.name: field.column for field in Task._meta.concrete_fields}
    serving = [
        index.name
        for index in Task._meta.indexes
        if len(index.fields) == len(equal) + 1
        and {column[f] for f in index.fields[:-1]} == equal
        and index.fields[-1] == "id"
    ]
    assert serving, f"no index of {sorted(equal)} then id"
