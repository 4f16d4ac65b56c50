"""The places of tasks: how many workers hold or have judged a task, against its
judgements per task.

An assignment holds its place while it is submitted, or active and not expired
(``holds_place_q``); ``places_taken`` counts them exactly, at a moment. ``Task.places_held``
is the indexed hint the hand-out reads (regular assignments active, even overdue, or
submitted): set again from the assignments under the task's lock at every claim
(``places_held_recount``), lowered when assignments expire (``places_held_release``).
A task's row lock (``task_to_lock``) guards its places.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, Greatest

from annotations.models import Assignment, Task
from common.queries import prepared, prepared_update


def holds_place_q(now: datetime, prefix: str = "") -> Q:
    """Assignments that hold a place in their task at ``now``."""
    return Q(**{f"{prefix}state": Assignment.State.SUBMITTED}) | (
        Q(**{f"{prefix}state": Assignment.State.ACTIVE})
        & (Q(**{f"{prefix}expires_at__isnull": True}) | Q(**{f"{prefix}expires_at__gt": now}))
    )


@prepared(task_id=int, now=datetime, excluding=int)
def _holding_places(*, task_id: int, now: datetime, excluding: int) -> QuerySet[Assignment, int]:
    return (
        Assignment.objects.filter(task_id=task_id, kind=Assignment.Kind.REGULAR)
        .filter(holds_place_q(now))
        .exclude(pk=excluding)
        .order_by()
        .values_list("pk", flat=True)
    )


def places_taken(task_id: int, now: datetime, *, excluding: int | None = None) -> int:
    """The places the task's assignments hold at ``now`` (but ``excluding``'s). Counted
    in Python: a task has a handful; the query is prepared (every hand-out runs it, and
    a submit whose assignment is overdue). Ids start at 1, so 0 excludes nothing."""
    return len(_holding_places(task_id=task_id, now=now, excluding=excluding or 0))


def taken_subquery(now: datetime) -> Subquery:
    """The places the outer task has taken at ``now`` (a correlated count)."""
    return Subquery(
        Assignment.objects.filter(task=OuterRef("pk"), kind=Assignment.Kind.REGULAR)
        .filter(holds_place_q(now))
        .order_by()
        .values("task")
        .annotate(n=Count("pk"))
        .values("n")
    )


def _places_held() -> Coalesce:
    """The places the outer task's regular assignments hold (active, even overdue, or
    submitted): the value ``Task.places_held`` keeps."""
    held = (
        Assignment.objects.filter(
            task=OuterRef("pk"),
            kind=Assignment.Kind.REGULAR,
            state__in=[Assignment.State.ACTIVE, Assignment.State.SUBMITTED],
        )
        .order_by()
        .values("task")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(held), Value(0))


def places_held_recount(*, task_ids: Sequence[int]) -> None:
    """Set ``Task.places_held`` of these tasks from their assignments (one statement).

    Called under the tasks' row locks, after a claim: the counter is exact again even if
    something other than a hand-out or an expiry (a late submit, a deletion) moved it.
    """
    if len(task_ids) == 1:  # set-up 2: one task per hand-out
        _places_held_recount_one(task_id=task_ids[0])
    else:
        Task.objects.filter(pk__in=task_ids).update(places_held=_places_held())


@prepared_update(task_id=int)
def _places_held_recount_one(*, task_id: int) -> tuple[QuerySet[Task], dict[str, Any]]:
    """``places_held_recount`` of one task, prepared: every hand-out runs it."""
    return Task.objects.filter(pk=task_id), {"places_held": _places_held()}


def places_held_release(*, released: Mapping[int, int]) -> None:
    """Take ``released[task_id]`` places off each task's counter (assignments expired)."""
    by_count: dict[int, list[int]] = {}
    for task_id, n in released.items():
        by_count.setdefault(n, []).append(task_id)
    for n, task_ids in by_count.items():
        Task.objects.filter(pk__in=task_ids).update(
            places_held=Greatest(F("places_held") - n, Value(0))
        )


def task_to_lock(task_id: int, *, skip_locked: bool = False) -> QuerySet[Task]:
    """The task row alone, to lock (``FOR NO KEY UPDATE``). Without ``order_by()`` the
    model's ordering would join the criterion and lock its row too: every hand-out of
    the criterion would then wait for (or skip past) every other."""
    return (
        Task.objects.select_for_update(no_key=True, skip_locked=skip_locked, of=("self",))
        .filter(pk=task_id)
        .order_by()
    )
