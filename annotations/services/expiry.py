"""Expiry: an assignment expires ``assignment_timeout_minutes`` after it was handed out
and its place goes back to the pool.

An overdue assignment stops holding its place at once (``places.holds_place_q``); the
stored state follows when its worker comes back (``page_resume``: the page renewed if
its places are still free, else expired) or in a periodic sweep (``assignments_expire``).
Either way the task's ``places_held`` counter is lowered for each regular assignment
expired.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from annotations.models import Assignment, Campaign, Task, Worker
from annotations.selectors.sessions import is_together
from annotations.services.places import places_held_release, places_taken, task_to_lock


def _page_key(assignment: Assignment, together: bool) -> tuple[str, int]:
    """Assignments with one key are one page: a group's in set-up 1, else each alone."""
    task = assignment.task
    if together and task.group is not None and assignment.kind == Assignment.Kind.REGULAR:
        return (f"group-{task.kind}", task.group)
    return ("assignment", assignment.pk)


def page_resume(*, worker: Worker, campaign: Campaign, now: datetime) -> Assignment | None:
    """The worker's unfinished page, renewed if its time ran out but its places are free.

    A page is one assignment, or in set-up 1 the assignments of one group: they are
    renewed or expired together. Returns the page's first assignment.
    """
    active = list(
        Assignment.objects.filter(worker=worker, state=Assignment.State.ACTIVE)
        .select_related("task__criterion", "task__item")
        .order_by("started_at", "id")
    )
    pages: dict[tuple[str, int], list[Assignment]] = {}
    for assignment in active:
        pages.setdefault(_page_key(assignment, is_together(campaign)), []).append(assignment)
    found: Assignment | None = None
    expires_at = now + timedelta(minutes=campaign.assignment_timeout_minutes)
    for page in pages.values():
        if found is None and all(a.expires_at is None or a.expires_at > now for a in page):
            found = page[0]
            continue
        room = found is None
        if room:
            for assignment in sorted(page, key=lambda a: a.task_id):
                counts = assignment.kind == Assignment.Kind.REGULAR and (
                    assignment.task.kind == Task.Kind.REGULAR
                )
                if not counts:
                    continue
                task_to_lock(assignment.task_id).first()
                room = room and (
                    places_taken(assignment.task_id, now, excluding=assignment.pk)
                    < campaign.judgements_per_task
                )
        released: dict[int, int] = {}
        for assignment in page:
            if room:
                assignment.expires_at = expires_at
                assignment.save(update_fields=["expires_at"])
            else:
                assignment.state = Assignment.State.EXPIRED
                assignment.save(update_fields=["state"])
                if assignment.kind == Assignment.Kind.REGULAR:
                    released[assignment.task_id] = released.get(assignment.task_id, 0) + 1
        places_held_release(released=released)
        if room:
            found = page[0]
    return found


@transaction.atomic
def assignments_expire(*, campaign: Campaign | None = None, now: datetime | None = None) -> int:
    """Mark active assignments whose time ran out as expired; returns how many.

    Not needed for correctness (an overdue assignment stops holding its place at once);
    it keeps the stored states tidy and is meant for a periodic job.
    """
    now = now or timezone.now()
    qs = Assignment.objects.filter(state=Assignment.State.ACTIVE, expires_at__lte=now)
    if campaign is not None:
        qs = qs.filter(task__campaign=campaign)
    return _expire(qs)


@transaction.atomic
def worker_assignments_expire(*, worker: Worker) -> int:
    """End the worker's active assignments now, whatever time they had left, freeing
    their places (a worker stopped by the organizer); returns how many."""
    return _expire(Assignment.objects.filter(state=Assignment.State.ACTIVE, worker=worker))


def _expire(active: QuerySet[Assignment]) -> int:
    rows = list(
        active.select_for_update(no_key=True, of=("self",)).values_list("pk", "task_id", "kind")
    )
    Assignment.objects.filter(pk__in=[pk for pk, _, _ in rows]).update(
        state=Assignment.State.EXPIRED
    )
    released: dict[int, int] = {}
    for _, task_id, kind in rows:
        if kind == Assignment.Kind.REGULAR:
            released[task_id] = released.get(task_id, 0) + 1
    places_held_release(released=released)
    return len(rows)
