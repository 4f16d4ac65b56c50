"""Handing out work: worker identity, consent, and the next task for a worker.

Rules kept here (and by database constraints on ``Assignment``):

* a regular task is never held by more workers than the campaign's judgements per task
  (an assignment holds its place while it is submitted, or active and not expired);
* a worker never gets the same task, or the same item under the same criterion, twice
  (repeats for self-consistency are the one, deliberate, exception);
* a worker gets at most ``tasks_per_worker`` tasks, checks included;
* an assignment expires ``assignment_timeout_minutes`` after it was handed out and its
  place goes back to the pool; the same worker coming back in time resumes it.

Concurrency: ``task_next_for`` locks the worker row (one hand-out per worker at a time),
then candidate task rows with ``SELECT ... FOR UPDATE SKIP LOCKED`` and counts the task's
places again after the lock is held (a fresh statement, so it sees every assignment
committed before the lock was granted). On SQLite the whole transaction is serialised by
``BEGIN IMMEDIATE`` instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from annotations.errors import DomainError
from annotations.models import Assignment, Campaign, Task, TaskOutput, Worker

# How many locked-and-full candidates to step over before giving up on one hand-out.
_MAX_CANDIDATES = 25

KIND_REGULAR = "regular"
KIND_ATTENTION = "attention"
KIND_REPEAT = "repeat"


class CampaignNotOpen(DomainError):
    """The campaign does not hand out work now (draft, paused or closed)."""


def _seed(*parts: int) -> list[int]:
    # numpy seeds must be non-negative; task_seed is a signed 64-bit field.
    return [int(p) % (2**63) for p in parts]


def holds_place_q(now: datetime, prefix: str = "") -> Q:
    """Assignments that hold a place in their task at ``now``."""
    return Q(**{f"{prefix}state": Assignment.State.SUBMITTED}) | (
        Q(**{f"{prefix}state": Assignment.State.ACTIVE})
        & (Q(**{f"{prefix}expires_at__isnull": True}) | Q(**{f"{prefix}expires_at__gt": now}))
    )


def places_taken(task_id: int, now: datetime, *, excluding: int | None = None) -> int:
    qs = Assignment.objects.filter(task_id=task_id, kind=Assignment.Kind.REGULAR).filter(
        holds_place_q(now)
    )
    if excluding is not None:
        qs = qs.exclude(pk=excluding)
    return qs.count()


@transaction.atomic
def worker_get_or_create(
    *, campaign: Campaign, platform: str, external_id: str, metadata: dict[str, Any] | None = None
) -> Worker:
    """The campaign's worker with this identity, created on first sight.

    ``metadata`` (e.g. Prolific study and session ids, MTurk HIT and assignment ids) is
    merged into what is stored; the latest values win. No IP address is stored.
    """
    external_id = external_id.strip()
    if not external_id or len(external_id) > 200:
        raise DomainError("The worker id is missing or too long.")
    try:
        with transaction.atomic():
            worker, created = Worker.objects.get_or_create(
                campaign=campaign,
                platform=platform,
                external_id=external_id,
                defaults={"metadata": metadata or {}, "last_seen_at": timezone.now()},
            )
    except IntegrityError:  # two first requests of one worker at once
        worker, created = (
            Worker.objects.get(campaign=campaign, platform=platform, external_id=external_id),
            False,
        )
    if not created and metadata and any(worker.metadata.get(k) != v for k, v in metadata.items()):
        worker.metadata = {**worker.metadata, **metadata}
        worker.save(update_fields=["metadata"])
    return worker


@transaction.atomic
def worker_consent(*, worker: Worker) -> Worker:
    """Record that the worker agreed to the consent text (the first time only)."""
    if worker.consented_at is None:
        worker.consented_at = timezone.now()
        worker.save(update_fields=["consented_at"])
    return worker


def session_plan(*, campaign: Campaign, worker: Worker) -> list[str]:
    """The kind of task at each position of the worker's session, fixed by seeds.

    ``regular``, ``attention`` or ``repeat``; ``round(rate * tasks_per_worker)`` of each
    check, repeats never in the first two positions (something must be there to repeat).
    """
    n = campaign.tasks_per_worker
    rng = np.random.default_rng(_seed(campaign.task_seed, worker.pk, 1))
    n_repeat = min(round(n * campaign.repeat_rate), max(0, n - 2))
    n_attention = min(round(n * campaign.attention_check_rate), n - n_repeat)
    plan = [KIND_REGULAR] * n
    repeat_at: Iterable[np.integer] = (
        rng.choice(np.arange(2, n), size=n_repeat, replace=False) if n_repeat else []
    )
    for p in repeat_at:
        plan[int(p)] = KIND_REPEAT
    free = np.array([i for i in range(n) if plan[i] == KIND_REGULAR], dtype=np.int64)
    attention_at: Iterable[np.integer] = (
        rng.choice(free, size=n_attention, replace=False) if n_attention else []
    )
    for p in attention_at:
        plan[int(p)] = KIND_ATTENTION
    return plan


def display_order_for(
    *, task: Task, worker: Worker, position: int, campaign: Campaign
) -> list[int]:
    """The task's slots in the order this assignment shows them (a seeded permutation)."""
    slots = sorted(set(TaskOutput.objects.filter(task=task).values_list("slot", flat=True)))
    rng = np.random.default_rng(_seed(campaign.task_seed, worker.pk, task.pk, position, 2))
    return [slots[i] for i in rng.permutation(len(slots))]


def _unseen_q(worker: Worker) -> Exists:
    return Exists(
        Assignment.objects.filter(
            worker=worker,
            kind=Assignment.Kind.REGULAR,
            item_id=OuterRef("item_id"),
            criterion_id=OuterRef("criterion_id"),
        )
    )


def _regular_candidates(*, campaign: Campaign, worker: Worker, now: datetime) -> QuerySet[Task]:
    taken = (
        Assignment.objects.filter(task=OuterRef("pk"), kind=Assignment.Kind.REGULAR)
        .filter(holds_place_q(now))
        .order_by()
        .values("task")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR)
        .filter(~_unseen_q(worker))
        .annotate(taken=Coalesce(Subquery(taken), Value(0)))
        .filter(taken__lt=campaign.judgements_per_task)
        .order_by("taken", "number", "id")
    )


def _lock_if_room(
    qs: QuerySet[Task], campaign: Campaign, now: datetime
) -> tuple[Task | None, bool]:
    """Lock the first task of ``qs`` and count its places again under the lock.

    Returns (task, has_room). A full task's lock is released at once (rolled back to a
    savepoint) so that no hand-out holds one task while waiting for another.
    """
    savepoint = transaction.savepoint()
    task = qs.only("pk", "campaign_id", "criterion_id", "item_id", "kind").first()
    if task is not None and places_taken(task.pk, now) < campaign.judgements_per_task:
        transaction.savepoint_commit(savepoint)
        return task, True
    transaction.savepoint_rollback(savepoint)
    return task, False


def _claim_regular(*, campaign: Campaign, worker: Worker, now: datetime) -> Task | None:
    candidates = _regular_candidates(campaign=campaign, worker=worker, now=now)
    full: list[int] = []
    for _ in range(_MAX_CANDIDATES):
        task, room = _lock_if_room(
            candidates.exclude(pk__in=full).select_for_update(
                skip_locked=True, no_key=True, of=("self",)
            ),
            campaign,
            now,
        )
        if task is None:
            break
        if room:
            return task
        full.append(task.pk)
    # Every candidate left is locked by another hand-out: wait for them in turn rather
    # than telling the worker there is nothing left.
    waiting = list(candidates.exclude(pk__in=full).values_list("pk", flat=True)[:_MAX_CANDIDATES])
    for task_id in waiting:
        task, room = _lock_if_room(
            Task.objects.select_for_update(no_key=True).filter(pk=task_id), campaign, now
        )
        if room:
            return task
    return None


def _pick_attention(*, campaign: Campaign, worker: Worker, rng: np.random.Generator) -> Task | None:
    # Imported here: quality builds attention tasks and imports this module's helpers.
    from annotations.services.quality import attention_task_create

    pool = list(
        Task.objects.filter(campaign=campaign, kind=Task.Kind.ATTENTION)
        .filter(~_unseen_q(worker))
        .values_list("pk", flat=True)[:200]
    )
    if pool:
        return Task.objects.get(pk=pool[int(rng.integers(0, len(pool)))])
    sources = list(
        Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR)
        .filter(~_unseen_q(worker))
        .annotate(n_slots=Count("task_outputs__slot", distinct=True))
        .filter(n_slots__gte=2)
        .values_list("pk", flat=True)[:200]
    )
    if not sources:
        return None
    source = Task.objects.get(pk=sources[int(rng.integers(0, len(sources)))])
    return attention_task_create(task=source, rng=rng)


def _pick_repeat(*, worker: Worker, rng: np.random.Generator) -> Task | None:
    done = list(
        Assignment.objects.filter(
            worker=worker,
            kind=Assignment.Kind.REGULAR,
            state=Assignment.State.SUBMITTED,
            task__kind=Task.Kind.REGULAR,
        )
        .exclude(
            Exists(
                Assignment.objects.filter(
                    worker=worker, kind=Assignment.Kind.REPEAT, task_id=OuterRef("task_id")
                )
            )
        )
        .order_by("submitted_at", "id")
        .values_list("task_id", flat=True)
    )
    # Not the task just done: a repeat straight after its original tests memory only.
    done = done[:-1]
    if not done:
        return None
    return Task.objects.get(pk=done[int(rng.integers(0, len(done)))])


def _resume(*, worker: Worker, campaign: Campaign, now: datetime) -> Assignment | None:
    """The worker's unfinished assignment, renewed if its time ran out but its place is free."""
    active = list(
        Assignment.objects.filter(worker=worker, state=Assignment.State.ACTIVE)
        .select_related("task__criterion", "task__item")
        .order_by("started_at", "id")
    )
    found: Assignment | None = None
    for assignment in active:
        if found is None and (assignment.expires_at is None or assignment.expires_at > now):
            found = assignment
            continue
        counts = assignment.kind == Assignment.Kind.REGULAR and (
            assignment.task.kind == Task.Kind.REGULAR
        )
        if found is None and counts:
            Task.objects.select_for_update(no_key=True).filter(pk=assignment.task_id).first()
            room = (
                places_taken(assignment.task_id, now, excluding=assignment.pk)
                < campaign.judgements_per_task
            )
        else:
            room = found is None
        if room:
            assignment.expires_at = now + timedelta(minutes=campaign.assignment_timeout_minutes)
            assignment.save(update_fields=["expires_at"])
            found = assignment
        else:
            assignment.state = Assignment.State.EXPIRED
            assignment.save(update_fields=["state"])
    return found


@transaction.atomic
def task_next_for(
    *, worker: Worker, campaign: Campaign, now: datetime | None = None
) -> Assignment | None:
    """The assignment the worker should work on now, or None when the session is over.

    Resumes the worker's active assignment when there is one (a refresh, a closed tab or
    another browser continue the same task); otherwise hands out the task the session
    plan asks for (regular, attention check or repeat; a check that cannot be made falls
    back to a regular task). Returns None when the worker is stopped, has done
    ``tasks_per_worker`` tasks, or no task is left for them. Only ``regular`` and
    ``attention`` tasks are handed out, never imported ones.

    Locks: the worker row (``FOR UPDATE``), then one task row at a time
    (``FOR UPDATE SKIP LOCKED``).
    """
    if campaign.status != Campaign.Status.LIVE:
        raise CampaignNotOpen(f"The campaign '{campaign}' is not open ({campaign.status}).")
    if worker.campaign_id != campaign.pk:
        raise DomainError("This worker belongs to another campaign.")
    now = now or timezone.now()
    worker = Worker.objects.select_for_update(no_key=True).get(pk=worker.pk)
    if worker.stopped:
        return None
    resumed = _resume(worker=worker, campaign=campaign, now=now)
    if resumed is not None:
        return resumed
    position = Assignment.objects.filter(worker=worker, state=Assignment.State.SUBMITTED).count()
    if position >= campaign.tasks_per_worker:
        return None
    plan = session_plan(campaign=campaign, worker=worker)
    rng = np.random.default_rng(_seed(campaign.task_seed, worker.pk, position, 3))
    kind = Assignment.Kind.REGULAR
    task: Task | None = None
    if plan[position] == KIND_REPEAT:
        task = _pick_repeat(worker=worker, rng=rng)
        kind = Assignment.Kind.REPEAT if task is not None else kind
    elif plan[position] == KIND_ATTENTION:
        task = _pick_attention(campaign=campaign, worker=worker, rng=rng)
    if task is None:
        task = _claim_regular(campaign=campaign, worker=worker, now=now)
    if task is None:
        return None
    assignment = Assignment.objects.create(
        worker=worker,
        task=task,
        item_id=task.item_id,
        criterion_id=task.criterion_id,
        kind=kind,
        state=Assignment.State.ACTIVE,
        display_order=display_order_for(
            task=task, worker=worker, position=position, campaign=campaign
        ),
        started_at=now,
        expires_at=now + timedelta(minutes=campaign.assignment_timeout_minutes),
    )
    Worker.objects.filter(pk=worker.pk).update(last_seen_at=now)
    return assignment


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
    return qs.update(state=Assignment.State.EXPIRED)
