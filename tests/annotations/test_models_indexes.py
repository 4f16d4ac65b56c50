"""No index that another index already covers (each one costs every insert)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection, models

pytestmark = pytest.mark.django_db

HOT_TABLES = ("assignment", "judgement", "judgementscore", "task", "taskoutput", "output", "item")


def _plain_indexes(table: str) -> dict[str, list[str]]:
    """Non-unique, non-primary indexes: name -> columns (partial ones count as plain:
    a full index starting with the same columns covers their lookups too)."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
    return {
        name: info["columns"]
        for name, info in constraints.items()
        if info["index"] and not info["unique"] and not info["primary_key"]
    }


def _all_indexes(table: str) -> dict[str, tuple[list[str], bool]]:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
    return {
        name: (info["columns"], info["unique"])
        for name, info in constraints.items()
        if info["index"] or info["unique"]
    }


def _full_unique_first_columns(model: type[models.Model]) -> set[str]:
    """The first column of each unique constraint without a condition: its index holds
    every row, so it serves lookups by that column (a partial one does not)."""
    firsts = [
        model._meta.get_field(c.fields[0])
        for c in model._meta.constraints
        if isinstance(c, models.UniqueConstraint) and c.condition is None and len(c.fields) > 1
    ]
    return {str(f.column) for f in firsts if isinstance(f, models.Field)}


@pytest.mark.parametrize("model", HOT_TABLES)
def test_no_single_column_index_is_the_prefix_of_another(model: str) -> None:
    cls = apps.get_model("annotations", model)
    table = cls._meta.db_table
    plain = _plain_indexes(table)
    every = _all_indexes(table)
    covered = _full_unique_first_columns(cls)
    redundant = [
        name
        for name, columns in plain.items()
        if len(columns) == 1
        and (
            columns[0] in covered
            or any(
                other != name and len(cols) > 1 and cols[0] == columns[0] and not unique
                for other, (cols, unique) in every.items()
            )
        )
    ]
    assert redundant == [], f"{table}: {redundant} duplicate the start of another index"
