"""Query helpers every app may use."""

from __future__ import annotations

from typing import TypeVar

from django.db import models

M = TypeVar("M", bound=models.Model)


def row_or_none(queryset: models.QuerySet[M]) -> M | None:
    """The row a query picks by a unique key (a primary key), or None.

    Unlike ``first()`` it builds no ORDER BY (one row needs none; building it was a
    measurable part of the worker's requests), and unlike ``get()`` it raises nothing.
    """
    return next(iter(queryset.order_by()[:1]), None)
