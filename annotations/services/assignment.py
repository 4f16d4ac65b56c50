"""Handing out work: the next page (task, or set-up 1 group of tasks) for a worker.

Elsewhere: the worker's identity and consent (``services.sessions``), the places of
tasks and their counter (``services.places``), time limits (``services.expiry``), drafts
(``services.drafts``).

Rules kept here (and by database constraints on ``Assignment``):

* a regular task is never held by more workers than the campaign's judgements per task
  (an assignment holds its place while it is submitted, or active and not expired);
* a worker never gets the same task, or the same item under the same criterion, twice
  (repeats for self-consistency are the one, deliberate, exception);
* a worker gets at most ``tasks_per_worker`` tasks, checks included;
* an assignment expires ``assignment_timeout_minutes`` after it was handed out and its
  place goes back to the pool; the same worker coming back in time resumes it
  (``expiry.page_resume``);
* items come in an order of their own for each worker (a seeded permutation of the
  campaign's tasks, from ``task_seed`` and the worker id), among tasks equally far from
  their judgements per task, and the item just shown is not shown again straight away
  for another criterion while some other item is available;
* set-up 1 (``campaign.setup == "together"``): the tasks of one ``Task.group`` (one item,
  every criterion) are one page; they are handed out together (one assignment each,
  claimed in one transaction, all or none) and ``tasks_per_worker`` counts pages.

Cost: a hand-out does not scan the campaign. ``Task.places_held`` (regular assignments
active, even overdue, or submitted; set again from the assignments under the task's
lock at every claim, lowered when assignments expire: ``services.places``) is indexed
with the task id, so the tasks with the fewest places held are read from a start of the
worker's own (``_WINDOW`` of them, plus any task with an overdue assignment), counted
exactly and ordered by the worker's item order. Workers arriving together thus start at different
tasks. A campaign with fewer candidates than the window is handed out exactly as a full
scan orders it; if the lookup finds nothing, the full scan (``_regular_candidates``) is
the fallback, so a place is never missed because a counter is off.

Concurrency: ``task_next_for`` locks the worker row (one hand-out per worker at a time),
then candidate task rows with ``SELECT ... FOR UPDATE SKIP LOCKED`` and counts the task's
places again after the lock is held (a fresh statement, so it sees every assignment
committed before the lock was granted). In set-up 1 only the group's lead task (its
first criterion's) is a candidate; once it is locked the group's other tasks are locked
in id order and counted too, so two hand-outs never hold parts of one group each. On
SQLite the whole transaction is serialised by ``BEGIN IMMEDIATE`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from django.db import transaction
from django.db.models import (
    Case,
    Count,
    Exists,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from annotations.models import Assignment, Campaign, Task, TaskOutput, Worker
from annotations.selectors.judgements import task_outputs_with_task
from annotations.selectors.sessions import (
    KIND_ATTENTION,
    KIND_REPEAT,
    is_together,
    pages_done,
    session_plan,
    session_seed,
)
from annotations.services.expiry import page_resume
from annotations.services.orders import (
    display_order_for,
    order_expression,
    order_value,
    worker_order_key,
)
from annotations.services.places import (
    places_held_recount,
    places_taken,
    taken_subquery,
    task_to_lock,
)
from annotations.services.quality import attention_task_create
from common.errors import DomainError
from common.queries import PreparedInsert, prepared, prepared_update

# How many locked-and-full candidates to step over before giving up on one hand-out.
_MAX_CANDIDATES = 25

# How many tasks of the lowest level of places held one hand-out looks at (from the
# worker's own start in the campaign's tasks): the cost of a hand-out, whatever the size
# of the campaign. A campaign with fewer candidates than this is ordered exactly as the
# full scan would order it.
_WINDOW = 64


class CampaignNotOpen(DomainError):
    """The campaign does not hand out work now (draft, paused or closed)."""


def _unseen_q(worker_id: int, *, any_criterion: bool = False) -> Exists:
    """The worker has a regular assignment on the task's item (under its criterion)."""
    match: dict[str, Any] = {"item_id": OuterRef("item_id")}
    if not any_criterion:
        match["criterion_id"] = OuterRef("criterion_id")
    return Exists(
        Assignment.objects.filter(worker_id=worker_id, kind=Assignment.Kind.REGULAR, **match)
    )


def lead_criterion_id(campaign: Campaign) -> int | None:
    """Set-up 1: the criterion whose task stands for its group when work is handed out."""
    return campaign.criteria.order_by("position", "name", "id").values_list("pk", flat=True).first()


def worker_task_language(*, campaign: Campaign, worker: Worker) -> str | None:
    """The language of the tasks a worker may get: theirs (else the campaign's first);
    None for a campaign of one language (no filter, no cost)."""
    languages = campaign.languages or []
    if len(languages) < 2:
        return None
    return worker.language or languages[0]


def _in_language(qs: QuerySet[Task], campaign: Campaign, worker: Worker) -> QuerySet[Task]:
    """Tasks in the worker's language only (workers judge in one language)."""
    language = worker_task_language(campaign=campaign, worker=worker)
    return qs if language is None else qs.filter(language=language)


def _regular_candidates(
    *,
    campaign: Campaign,
    worker: Worker,
    now: datetime,
    avoid_item: int | None = None,
    lead: int | None = None,
) -> QuerySet[Task]:
    """Regular tasks the worker may get, best first (a scan of the whole campaign).

    Order: the item just shown last (``avoid_item``) only when nothing else is left; then
    the tasks furthest from their judgements per task; then the worker's own seeded
    order of items and criteria. In set-up 1 only the lead criterion's tasks (``lead``).
    The hand-out uses it only when its indexed lookup (``_window``) found nothing.
    """
    key = order_expression(key=worker_order_key(campaign=campaign, worker=worker))
    qs = _in_language(
        Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR), campaign, worker
    )
    if lead is not None:
        qs = qs.filter(criterion_id=lead)
    return (
        qs.filter(~_unseen_q(worker.pk, any_criterion=lead is not None))
        .annotate(taken=Coalesce(taken_subquery(now), Value(0)))
        .filter(taken__lt=campaign.judgements_per_task)
        .annotate(
            again=Case(When(item_id=avoid_item, then=Value(1)), default=Value(0)),
            order_key=key,
        )
        .order_by("again", "taken", "order_key", "number", "id")
    )


_TASK_FIELDS = (
    "pk",
    "campaign_id",
    "criterion_id",
    "item_id",
    "kind",
    "group",
    "number",
    "language",
)

# (campaign id, task seed) -> (lowest, highest) id of its regular tasks. Only where a
# worker starts looking depends on it, so a stale entry (tasks rebuilt with the same
# seed) costs spread, never correctness.
_task_id_bounds: dict[tuple[int, int], tuple[int, int]] = {}


def _start_id(*, campaign: Campaign, worker: Worker) -> int:
    """Where in the campaign's task ids this worker starts looking (seeded per worker),
    so that workers arriving together spread over the campaign instead of colliding."""
    key = (campaign.pk, campaign.task_seed)
    bounds = _task_id_bounds.get(key)
    if bounds is None:
        found = Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR).aggregate(
            lo=Min("id"), hi=Max("id")
        )
        if found["lo"] is None:
            return 0
        bounds = _task_id_bounds[key] = (found["lo"], found["hi"])
    lo, hi = bounds
    c = worker_order_key(campaign=campaign, worker=worker)[2]
    return lo + c % (hi - lo + 1)


@dataclass(frozen=True)
class _Candidates:
    """The regular tasks one hand-out may give a worker, as the form of their query and
    its values (so that the hand-out's queries are prepared: compiled once).

    ``part``: every item (``all``), items other than the one shown last (``other``), or
    that item only (``avoided``).
    """

    campaign_id: int
    worker_id: int
    language: str | None
    lead_id: int | None
    avoid_item: int | None
    part: str

    @property
    def form(self) -> tuple[bool, bool, str]:
        return (self.language is not None, self.lead_id is not None, self.part)

    @property
    def values(self) -> dict[str, Any]:
        return {
            "campaign_id": self.campaign_id,
            "worker_id": self.worker_id,
            "language": self.language or "",
            "lead_id": self.lead_id or 0,
            "avoid_item": self.avoid_item or 0,
        }


def _candidates(
    form: tuple[bool, bool, str],
    *,
    campaign_id: int,
    worker_id: int,
    language: str,
    lead_id: int,
    avoid_item: int,
) -> QuerySet[Task]:
    """The queryset of ``_Candidates`` (``form`` and ``values``)."""
    in_language, led, part = form
    qs = Task.objects.filter(campaign_id=campaign_id, kind=Task.Kind.REGULAR)
    if in_language:
        qs = qs.filter(language=language)
    if led:
        qs = qs.filter(criterion_id=lead_id)
    qs = qs.filter(~_unseen_q(worker_id, any_criterion=led))
    if part == "other":
        qs = qs.exclude(item_id=avoid_item)
    elif part == "avoided":
        qs = qs.filter(item_id=avoid_item)
    return qs


_CANDIDATE_VALUES: dict[str, type] = {
    "campaign_id": int,
    "worker_id": int,
    "language": str,
    "lead_id": int,
    "avoid_item": int,
}
_WINDOW_FIELDS = ("pk", "item_id", "criterion_id", "number", "places_held")


@prepared(**_CANDIDATE_VALUES, jpt=int)
def _lowest_level(form: tuple[bool, bool, str], *, jpt: int, **values: Any) -> QuerySet[Task, int]:
    return (
        _candidates(form, **values)
        .filter(places_held__lt=jpt)
        .order_by("places_held")
        .values_list("places_held", flat=True)[:1]
    )


@prepared(**_CANDIDATE_VALUES, level=int, start=int)
def _at_level(
    form: tuple[bool, bool, str], from_start: bool, *, level: int, start: int, **values: Any
) -> QuerySet[Task, tuple[int, int, int, int, int]]:
    qs = _candidates(form, **values).filter(places_held=level)
    qs = qs.filter(id__gte=start) if from_start else qs.filter(id__lt=start)
    return qs.order_by("id").values_list(*_WINDOW_FIELDS)[:_WINDOW]


@prepared(campaign_id=int, now=datetime)
def _overdue_tasks(*, campaign_id: int, now: datetime) -> QuerySet[Assignment, int]:
    return (
        Assignment.objects.filter(
            state=Assignment.State.ACTIVE,
            kind=Assignment.Kind.REGULAR,
            expires_at__lte=now,
            task__campaign_id=campaign_id,
        )
        .order_by()
        .values_list("task_id", flat=True)
    )


def _window(
    *,
    candidates: _Candidates,
    campaign: Campaign,
    worker: Worker,
    now: datetime,
    start: int,
) -> list[int]:
    """The ids of up to ``_WINDOW`` of ``candidates`` with the fewest places, best first.

    Indexed (``task_handout``): the lowest level of ``Task.places_held`` first, each level
    read from the worker's ``start`` id onwards and then from the lowest id, so the cost
    does not grow with the campaign. Rows are read as values (no model instances) and a
    task's places are its counter, except for tasks with an overdue assignment (which
    their counter still counts): those are added and counted exactly at ``now``. The
    window is ordered as ``_regular_candidates`` orders the whole campaign: fewest places
    taken, then the worker's own order, number and id. Places are counted exactly again
    under the task's lock before a claim (``_lock_if_room``), so a counter that is off
    costs order, never a place too many. The queries are prepared (``_lowest_level``,
    ``_at_level``, ``_overdue_tasks``): every hand-out runs them.
    """
    jpt = campaign.judgements_per_task
    form, values = candidates.form, candidates.values
    lowest = next(iter(_lowest_level(form, jpt=jpt, **values)), None)
    found: list[tuple[int, int, int, int, int]] = []
    for level in range(lowest if lowest is not None else jpt, jpt):
        for from_start in (True, False):
            if len(found) < _WINDOW:
                rows = _at_level(form, from_start, level=level, start=start, **values)
                found += rows[: _WINDOW - len(found)]
        if len(found) >= _WINDOW:
            break
    # Usually none: a plain indexed read, and the exact count only when there are some.
    overdue = set(_overdue_tasks(campaign_id=campaign.pk, now=now))
    late = (
        {
            row[0]: row
            for row in _candidates(form, **values)
            .filter(pk__in=overdue)
            .annotate(taken=Coalesce(taken_subquery(now), Value(0)))
            .order_by()
            .values_list(*_WINDOW_FIELDS[:-1], "taken")
        }
        if overdue
        else {}
    )
    rows = [row for row in found if row[0] not in late] + list(late.values())
    key = worker_order_key(campaign=campaign, worker=worker)
    return [
        row[0]
        for row in sorted(
            (row for row in rows if row[4] < jpt),
            key=lambda row: (
                row[4],
                order_value(key=key, item_id=row[1], criterion_id=row[2]),
                row[3],
                row[0],
            ),
        )
    ]


def _group_tasks(task: Task) -> list[Task]:
    """Set-up 1: the other tasks of ``task``'s group, locked in id order (``FOR UPDATE``)."""
    return list(
        Task.objects.select_for_update(no_key=True)
        .filter(campaign_id=task.campaign_id, group=task.group, kind=task.kind)
        .exclude(pk=task.pk)
        .only("pk", "campaign_id", "criterion_id", "item_id", "kind", "group")
        .order_by("id")
    )


@prepared(task_id=int)
def _task_locked(skip_locked: bool, *, task_id: int) -> QuerySet[Task]:
    """``task_to_lock`` with the fields a claim uses (prepared: every hand-out runs it)."""
    return task_to_lock(task_id, skip_locked=skip_locked).only(*_TASK_FIELDS)[:1]


def _lock_if_room(
    target: QuerySet[Task] | int,
    campaign: Campaign,
    now: datetime,
    *,
    skip_locked: bool = False,
) -> tuple[list[Task] | None, bool]:
    """Lock the task ``target`` (an id) or the first task of ``target`` (a queryset that
    locks), with its group in set-up 1, and count its places again under the lock.

    Returns (tasks, has_room): the task first, then its group's other tasks. A full
    task's locks are released at once (rolled back to a savepoint) so that no hand-out
    holds one task while waiting for another.
    """
    savepoint = transaction.savepoint()
    if isinstance(target, int):
        task = next(iter(_task_locked(skip_locked, task_id=target)), None)
    else:
        task = target.only(*_TASK_FIELDS).first()
    if task is None:
        transaction.savepoint_rollback(savepoint)
        return None, False
    tasks = [task]
    if is_together(campaign) and task.group is not None:
        tasks += _group_tasks(task)
    if all(places_taken(t.pk, now) < campaign.judgements_per_task for t in tasks):
        # Not released (one statement less): the transaction's end releases it, and
        # so does the release of any savepoint around it (a nested ``atomic``).
        return tasks, True
    transaction.savepoint_rollback(savepoint)
    return tasks, False


def _claim_regular(
    *, campaign: Campaign, worker: Worker, now: datetime, avoid_item: int | None
) -> list[Task] | None:
    """Lock a regular task with a free place for the worker (in set-up 1 its group too).

    The indexed lookup first (``_window``: items other than ``avoid_item``, then that
    item), skipping tasks another hand-out has locked, then waiting for those; only if
    that finds nothing, the scan of the whole campaign (``_claim_by_scan``), so a free
    place is never missed even if ``Task.places_held`` is off.
    """
    # Set-up 1: the group's lead task stands for its page. Set-up 2: a worker given one
    # criterion on arrival (``Worker.criterion``) gets that criterion's tasks only; the
    # same filter serves both (the worker then sees each item once either way).
    lead = lead_criterion_id(campaign) if is_together(campaign) else worker.criterion_id
    parts = [
        _Candidates(
            campaign_id=campaign.pk,
            worker_id=worker.pk,
            language=worker_task_language(campaign=campaign, worker=worker),
            lead_id=lead,
            avoid_item=avoid_item,
            part=part,
        )
        for part in (("all",) if avoid_item is None else ("other", "avoided"))
    ]
    start = _start_id(campaign=campaign, worker=worker)
    locked: list[int] = []
    tried = 0
    for part in parts:
        for task_id in _window(
            candidates=part, campaign=campaign, worker=worker, now=now, start=start
        ):
            if tried >= _MAX_CANDIDATES:
                break
            tried += 1
            tasks, room = _lock_if_room(task_id, campaign, now, skip_locked=True)
            if tasks is None:
                locked.append(task_id)
            elif room:
                return tasks
    # Every candidate left is locked by another hand-out: wait for them in turn rather
    # than telling the worker there is nothing left.
    for task_id in locked:
        tasks, room = _lock_if_room(task_id, campaign, now)
        if room:
            return tasks
    return _claim_by_scan(
        campaign=campaign, worker=worker, now=now, avoid_item=avoid_item, lead=lead
    )


def _claim_by_scan(
    *, campaign: Campaign, worker: Worker, now: datetime, avoid_item: int | None, lead: int | None
) -> list[Task] | None:
    candidates = _regular_candidates(
        campaign=campaign, worker=worker, now=now, avoid_item=avoid_item, lead=lead
    )
    full: list[int] = []
    for _ in range(_MAX_CANDIDATES):
        tasks, room = _lock_if_room(
            candidates.exclude(pk__in=full).select_for_update(
                skip_locked=True, no_key=True, of=("self",)
            ),
            campaign,
            now,
        )
        if tasks is None:
            break
        if room:
            return tasks
        full.append(tasks[0].pk)
    waiting = list(candidates.exclude(pk__in=full).values_list("pk", flat=True)[:_MAX_CANDIDATES])
    for task_id in waiting:
        tasks, room = _lock_if_room(task_id, campaign, now)
        if room:
            return tasks
    return None


def _pick_attention(*, campaign: Campaign, worker: Worker, rng: np.random.Generator) -> Task | None:
    """An attention check that looks like the worker's other tasks: of a criterion the
    worker has judged (set-up 2: a worker rating informativeness gets no quality check),
    a prepared check else a fresh copy of one of their criterion's tasks; any criterion
    only when the worker has none yet or their criterion offers no task to copy."""
    own = Q(
        criterion_id__in=Assignment.objects.filter(worker_id=worker.pk).values("task__criterion_id")
    )
    lead = lead_criterion_id(campaign) if is_together(campaign) else worker.criterion_id
    if lead is not None:
        # Set-up 1: a check is a page of every criterion, stood for by its lead's task.
        # Set-up 2 with a criterion per worker: a check of that criterion only.
        own = Q(criterion_id=lead)
    for criteria in (own, Q()) if lead is None else (own,):
        pool = list(
            _in_language(
                Task.objects.filter(criteria, campaign=campaign, kind=Task.Kind.ATTENTION),
                campaign,
                worker,
            )
            .filter(~_unseen_q(worker.pk))
            .values_list("pk", flat=True)[:200]
        )
        if pool:
            return Task.objects.get(pk=pool[int(rng.integers(0, len(pool)))])
        sources = list(
            _in_language(
                Task.objects.filter(criteria, campaign=campaign, kind=Task.Kind.REGULAR),
                campaign,
                worker,
            )
            .filter(~_unseen_q(worker.pk))
            .annotate(n_slots=Count("task_outputs__slot", distinct=True))
            .filter(n_slots__gte=2)
            .values_list("pk", flat=True)[:200]
        )
        if sources:
            source = Task.objects.get(pk=sources[int(rng.integers(0, len(sources)))])
            return attention_task_create(task=source, rng=rng)
    return None


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
    # (After an attention check in between, the last regular task may be repeated.)
    last = (
        Assignment.objects.filter(worker=worker, state=Assignment.State.SUBMITTED)
        .order_by("-submitted_at", "-id")
        .values_list("task_id", flat=True)
        .first()
    )
    if done and done[-1] == last:
        done = done[:-1]
    if not done:
        return None
    return Task.objects.get(pk=done[int(rng.integers(0, len(done)))])


def task_next_for(
    *, worker: Worker, campaign: Campaign, now: datetime | None = None
) -> Assignment | None:
    """The assignment the worker should work on now, or None when the session is over
    (``page_next_for`` without the pages done)."""
    return page_next_for(worker=worker, campaign=campaign, now=now).assignment


# Every hand-out adds an assignment: its INSERT is compiled once.
_assignment_insert = PreparedInsert(Assignment)


@prepared_update(worker_id=int, now=datetime, returning=("stopped", "language"))
def _worker_seen_locked(
    *, worker_id: int, now: datetime
) -> tuple[QuerySet[Worker], dict[str, Any]]:
    """Stamp the worker's ``last_seen_at`` and read back what another request may have
    changed: one statement that also locks the row (as ``FOR NO KEY UPDATE``)."""
    return Worker.objects.filter(pk=worker_id), {"last_seen_at": now}


@prepared(worker_id=int)
def _assignments_of(*, worker_id: int) -> QuerySet[Assignment, tuple[str, int, datetime, int]]:
    return (
        Assignment.objects.filter(worker_id=worker_id)
        .order_by()
        .values_list("state", "item_id", "started_at", "id")
    )


@dataclass(frozen=True)
class NextPage:
    """What ``page_next_for`` found: the page's first assignment (None: the session is
    over) and the pages the worker has done, when the hand-out counted them (None when
    it did not need to: a stopped worker, a resumed page in set-up 1)."""

    assignment: Assignment | None
    pages_done: int | None
    # The new task's outputs with its criterion and item, when the hand-out read them
    # (``task_page_for`` takes them instead of reading them again).
    task_outputs: list[TaskOutput] | None = None


@transaction.atomic
def page_next_for(*, worker: Worker, campaign: Campaign, now: datetime | None = None) -> NextPage:
    """The assignment the worker should work on now, or None when the session is over.

    Resumes the worker's active assignment when there is one (a refresh, a closed tab or
    another browser continue the same task); in set-up 1 the whole page is handed out
    (one assignment per task of the group, all created here) and the first is returned
    (``page_assignments`` gives the others); otherwise hands out the task the session
    plan asks for (regular, attention check or repeat; a check that cannot be made falls
    back to a regular task). Returns None when the worker is stopped, has done
    ``tasks_per_worker`` tasks, or no task is left for them. Only ``regular`` and
    ``attention`` tasks are handed out, never imported ones.

    Locks: the worker row (the statement that stamps its ``last_seen_at``), then one
    task row at a time (``FOR UPDATE SKIP LOCKED``), in set-up 1 followed by the rest of
    its group.
    """
    _hand_out_check(worker=worker, campaign=campaign)
    now = now or timezone.now()
    _worker_seen(worker=worker, now=now)
    if worker.stopped:
        return NextPage(None, None)
    # One read of the worker's assignments (a session's worth) answers the usual case:
    # nothing to resume, the pages done (set-up 2) and the item shown last.
    mine = _assignments_of(worker_id=worker.pk)
    together = is_together(campaign)
    submitted = sum(state == Assignment.State.SUBMITTED for state, *_ in mine)
    resumed = _page_resumed(
        worker=worker, campaign=campaign, now=now, mine=mine, submitted=submitted
    )
    if resumed is not None:
        return resumed
    position = pages_done(worker=worker, campaign=campaign) if together else submitted
    if position >= campaign.tasks_per_worker:
        return NextPage(None, position)
    tasks, kind = _check_planned(campaign=campaign, worker=worker, position=position)
    if tasks is None:
        tasks = _claim_regular(
            campaign=campaign, worker=worker, now=now, avoid_item=_item_shown_last(mine)
        )
    if not tasks:
        return NextPage(None, position)
    return _page_hand_out(
        campaign=campaign, worker=worker, tasks=tasks, kind=kind, position=position, now=now
    )


def _page_resumed(
    *,
    worker: Worker,
    campaign: Campaign,
    now: datetime,
    mine: list[tuple[str, int, datetime, int]],
    submitted: int,
) -> NextPage | None:
    """The worker's active page, resumed (a refresh, a closed tab or another browser
    continue the same task), if ``mine`` (their assignments) has one still open."""
    if not any(state == Assignment.State.ACTIVE for state, *_ in mine):
        return None
    resumed = page_resume(worker=worker, campaign=campaign, now=now)
    if resumed is None:
        return None
    return NextPage(resumed, None if is_together(campaign) else submitted)


def _item_shown_last(mine: list[tuple[str, int, datetime, int]]) -> int | None:
    """The item of the worker's latest assignment (of ``mine``), which the next regular
    task avoids."""
    return max(mine, key=lambda row: (row[2], row[3]))[1] if mine else None


def _hand_out_check(*, worker: Worker, campaign: Campaign) -> None:
    """Refuse to hand out a task of a campaign that is not live, or to another
    campaign's worker."""
    if campaign.status != Campaign.Status.LIVE:
        raise CampaignNotOpen(f"The campaign '{campaign}' is not open ({campaign.status}).")
    if worker.campaign_id != campaign.pk:
        raise DomainError("This worker belongs to another campaign.")


def _worker_seen(*, worker: Worker, now: datetime) -> None:
    """Lock the worker's row (stamping their last visit) and read into ``worker`` what
    another request may have changed since it was read: ``stopped`` and ``language``."""
    locked = _worker_seen_locked.rows(worker_id=worker.pk, now=now)
    if not locked:
        raise Worker.DoesNotExist(f"Worker {worker.pk} does not exist.")
    worker.stopped, worker.language = locked[0]


def _check_planned(
    *, campaign: Campaign, worker: Worker, position: int
) -> tuple[list[Task] | None, str]:
    """The check the session plan asks for at ``position`` (a repeat, or an attention
    check with the rest of its group in set-up 1) and the kind of its assignments; no
    tasks (None, regular) when the plan asks for a regular task or the check cannot be
    made, so that a regular task is handed out instead."""
    plan = session_plan(campaign=campaign, worker=worker)
    rng = np.random.default_rng(session_seed(campaign.task_seed, worker.pk, position, 3))
    task: Task | None = None
    kind = Assignment.Kind.REGULAR
    if plan[position] == KIND_REPEAT:
        task, kind = _pick_repeat(worker=worker, rng=rng), Assignment.Kind.REPEAT
    elif plan[position] == KIND_ATTENTION:
        task = _pick_attention(campaign=campaign, worker=worker, rng=rng)
    if task is None:
        return None, Assignment.Kind.REGULAR
    if is_together(campaign) and task.group is not None and task.kind == Task.Kind.ATTENTION:
        return [task, *_group_tasks(task)], kind
    return [task], kind


def _page_hand_out(
    *,
    campaign: Campaign,
    worker: Worker,
    tasks: list[Task],
    kind: str,
    position: int,
    now: datetime,
) -> NextPage:
    """Create the page's active assignments (one per task, the outputs in one order for
    the whole page: set-up 1 shows each output once) and recount the places a regular
    hand-out holds."""
    outputs = task_outputs_with_task(task_id=tasks[0].pk)
    order = display_order_for(
        task=tasks[0],
        worker=worker,
        position=position,
        campaign=campaign,
        slots=[to.slot for to in outputs],
    )
    assignments = [
        _assignment_insert(
            worker=worker,
            task=t,
            item_id=t.item_id,
            criterion_id=t.criterion_id,
            kind=kind,
            state=Assignment.State.ACTIVE,
            display_order=order,
            started_at=now,
            expires_at=now + timedelta(minutes=campaign.assignment_timeout_minutes),
        )
        for t in tasks
    ]
    if kind == Assignment.Kind.REGULAR:
        places_held_recount(task_ids=[t.pk for t in tasks if t.kind == Task.Kind.REGULAR])
    return NextPage(assignments[0], position, outputs if len(tasks) == 1 else None)
