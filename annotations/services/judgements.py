"""Recording a worker's judgement: validation of scores, time on task, idempotency, and
the submit of a worker's page (one task, or every criterion of a set-up 1 page)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext

from annotations.core.scoring import ranks_from_scores
from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Judgement,
    JudgementScore,
    Task,
    TaskOutput,
    Worker,
)
from annotations.selectors.judgements import TaskPage, page_parts
from annotations.services.criteria import checks_ticked_clean
from annotations.services.drafts import assignment_draft_save
from annotations.services.places import places_taken
from annotations.services.sessions import worker_seen
from common.errors import DomainError
from common.queries import PreparedInsert, prepared, prepared_update


class InvalidScores(DomainError):
    """Scores that do not fit the task or the scale; ``errors`` maps slot -> message."""

    def __init__(self, errors: dict[int, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"slot {s}: {m}" for s, m in sorted(errors.items())))


class InvalidPageScores(DomainError):
    """Set-up 1: scores of a page that do not fit; ``errors`` maps criterion id -> slot ->
    message."""

    def __init__(self, errors: dict[int, dict[int, str]]) -> None:
        self.errors = errors
        super().__init__(
            "; ".join(
                f"criterion {c}, slot {s}: {m}"
                for c, by_slot in sorted(errors.items())
                for s, m in sorted(by_slot.items())
            )
        )


class TooFast(DomainError):
    """Submitted before the campaign's minimum time per task.

    ``can_confirm`` is True when the campaign only warns: submitting again with
    ``acknowledge_too_fast=True`` records the judgement (marked ``too_fast``).
    """

    def __init__(self, *, seconds: float, minimum: int, can_confirm: bool) -> None:
        self.seconds = seconds
        self.minimum = minimum
        self.can_confirm = can_confirm
        # The real time taken, never rounded down to a misleading "0 seconds".
        # Rounded here: number_format cuts digits off rather than rounding.
        places = 1 if seconds < 10 else 0
        spent = number_format(round(seconds, places), places, use_l10n=True)
        if can_confirm:
            message = gettext(
                "You spent %(spent)s seconds on this task; we expect at least %(minimum)s. "
                "Please make sure you have read every output."
            ) % {"spent": spent, "minimum": minimum}
        else:
            message = gettext(
                "You spent %(spent)s seconds on this task; please take at least %(minimum)s "
                "seconds per task and read every output before you submit."
            ) % {"spent": spent, "minimum": minimum}
        super().__init__(message)


class AssignmentExpired(DomainError):
    """The assignment's time ran out and its place was given to someone else."""


def max_magnitude(criterion: Criterion) -> int:
    digits = criterion.scale_settings.get("max_digits", Criterion.MAGNITUDE_MAX_DIGITS)
    return 10 ** int(digits) - 1


def score_error(*, criterion: Criterion, score: float) -> str | None:
    """Why ``score`` is not a valid answer on the criterion's scale, or None."""
    if criterion.scale == Criterion.Scale.MAGNITUDE:
        if score != int(score) or score <= 0:
            return gettext("Enter a whole number above 0.")
        if score > max_magnitude(criterion):
            return gettext("Enter at most %(digits)s digits.") % {
                "digits": len(str(max_magnitude(criterion)))
            }
    elif criterion.scale == Criterion.Scale.SLIDER:
        if not 0 <= score <= 100:
            return gettext("Slider values run from 0 to 100.")
    elif criterion.scale == Criterion.Scale.LIKERT:
        values = {float(level["value"]) for level in criterion.likert_levels}
        if float(score) not in values:
            return gettext("Choose one of the levels.")
    return None


def scores_validate(
    *, criterion: Criterion, slots: list[int], scores: Mapping[int, float]
) -> dict[int, float]:
    """The scores, one per slot, checked against the scale. Raises ``InvalidScores``."""
    errors: dict[int, str] = {}
    clean: dict[int, float] = {}
    for slot in slots:
        if slot not in scores or scores[slot] is None:
            errors[slot] = gettext("Give this output a score.")
            continue
        value = float(scores[slot])
        problem = score_error(criterion=criterion, score=value)
        if problem:
            errors[slot] = problem
        clean[slot] = value
    for slot in set(scores) - set(slots):
        errors[slot] = gettext("This task has no such output.")
    if errors:
        raise InvalidScores(errors)
    return clean


@prepared(assignment_id=int, worker_id=int)
def _assignment_locked(
    joins: tuple[str, ...], *, assignment_id: int, worker_id: int
) -> QuerySet[Assignment]:
    """The worker's assignment, its row locked (``FOR NO KEY UPDATE``), read with the
    related rows ``joins`` names. Prepared (one statement per tuple of joins): every
    submit runs it."""
    return (
        Assignment.objects.select_for_update(no_key=True, of=("self",))
        .filter(pk=assignment_id, worker_id=worker_id)
        .select_related(*joins)
        .order_by()[:1]
    )


# Every submit adds a judgement and its scores: their INSERTs are compiled once.
_judgement_insert = PreparedInsert(Judgement)
_scores_insert = PreparedInsert(JudgementScore)


def assignment_to_submit(*, worker: Worker, assignment_id: int) -> Assignment | None:
    """The worker's assignment, locked for ``judgement_submit(already_locked=True)`` in
    the same transaction: the worker row first (the statement that stamps
    ``last_seen_at``), then the assignment, read with its task, criterion, item and
    judgement (if it has one), and its campaign unless the worker was read with it.
    None if the worker has no such assignment. Two statements, where a read for the
    page and a locked read in ``judgement_submit`` would be three."""
    if transaction.get_autocommit():
        raise transaction.TransactionManagementError("assignment_to_submit needs a transaction")
    worker_seen(worker_id=worker.pk, now=timezone.now())
    if worker.released:  # its id was freed for its owner: it may submit nothing more
        return None
    campaign = worker.campaign if Worker.campaign.is_cached(worker) else None  # type: ignore[attr-defined]
    joins = ("judgement", "task__criterion", "task__item")
    found = _assignment_locked(
        joins if campaign is not None else (*joins, "task__campaign"),
        assignment_id=assignment_id,
        worker_id=worker.pk,
    )
    if not found:
        return None
    assignment = found[0]
    if campaign is not None:
        assignment.task.campaign = campaign
    return assignment


@prepared_update(assignment_id=int, at=datetime)
def _assignment_submitted(
    *, assignment_id: int, at: datetime
) -> tuple[QuerySet[Assignment], dict[str, Any]]:
    """The assignment is submitted (``save(update_fields=...)``, prepared)."""
    return Assignment.objects.filter(pk=assignment_id), {
        "state": Assignment.State.SUBMITTED,
        "submitted_at": at,
    }


def judgement_submit(
    *,
    assignment: Assignment,
    scores: Mapping[int, float],
    acknowledge_too_fast: bool = False,
    coverage: Mapping[int, str] | None = None,
    checks: Mapping[int, Iterable[str]] | None = None,
    metadata: dict[str, Any] | None = None,
    now: datetime | None = None,
    task_outputs: Sequence[TaskOutput] | None = None,
    task: Task | None = None,
    already_locked: bool = False,
) -> Judgement:
    """Record the worker's scores (slot -> score) for the assignment's task.

    Idempotent: when the assignment already has a judgement (a double click, a resubmit,
    a retry after a network error) that judgement is returned and nothing is written.
    Every output in a slot gets its own score row with the slot's score (merged identical
    outputs), degraded copies keep their role so rankings can leave them out.
    ``checks`` (slot -> content-check keys the worker ticked) must name checks the
    criterion offers; they are stored with every output of the slot.

    Time on task is measured on the server from the hand-out. Below the campaign's
    minimum, ``min_time_policy`` decides: ``refuse`` raises ``TooFast``; ``warn`` raises
    ``TooFast(can_confirm=True)`` unless ``acknowledge_too_fast`` and then records the
    judgement with ``too_fast=True``.

    ``task_outputs``: the task's ``TaskOutput`` rows when the caller has read them already
    (the task page has); read here otherwise. ``task``: the assignment's task with its
    campaign and criterion loaded, when the caller has read them in this request (the
    worker's submit has); read here, with the lock, otherwise.

    Locks the worker row (the statement that stamps ``last_seen_at``: an ``UPDATE`` holds
    the row as ``FOR NO KEY UPDATE`` does, and is undone with everything else if the
    submission is refused), then the assignment row (``FOR UPDATE``), so concurrent
    submissions of one assignment record exactly one judgement. ``already_locked``: the
    caller has done both in this transaction (``assignment_to_submit``) and
    ``assignment`` is what that read.
    """
    if already_locked and transaction.get_autocommit():
        raise transaction.TransactionManagementError("already_locked needs a transaction")
    now = now or timezone.now()
    mine = task is not None and task.pk == assignment.task_id
    # Locked by the caller: its transaction, and no savepoint (it rolls back if this
    # raises, as the worker's submit does).
    with contextlib.nullcontext() if already_locked else transaction.atomic():
        if already_locked:
            locked = assignment
        else:
            worker_seen(worker_id=assignment.worker_id, now=now)
            found = _assignment_locked(
                ("judgement",) if mine else ("judgement", "task__campaign", "task__criterion"),
                assignment_id=assignment.pk,
                worker_id=assignment.worker_id,
            )
            if not found:
                raise Assignment.DoesNotExist(f"Assignment {assignment.pk} does not exist.")
            locked = found[0]
        return _judgement_record(
            locked,
            scores=scores,
            acknowledge_too_fast=acknowledge_too_fast,
            coverage=coverage or {},
            checks=checks or {},
            metadata=metadata or {},
            now=now,
            task_outputs=task_outputs,
            task=task if mine else None,
        )


def _judgement_record(
    locked: Assignment,
    *,
    scores: Mapping[int, float],
    acknowledge_too_fast: bool,
    coverage: Mapping[int, str],
    checks: Mapping[int, Iterable[str]],
    metadata: dict[str, Any],
    now: datetime,
    task_outputs: Sequence[TaskOutput] | None,
    task: Task | None,
) -> Judgement:
    """``judgement_submit`` once the worker and the assignment are locked: the checks and
    the writes (``task``: the assignment's task, read by the caller, or None)."""
    existing = getattr(locked, "judgement", None)
    if existing is not None:
        return existing
    if task is not None:
        locked.task = task
    task = locked.task
    campaign: Campaign = task.campaign
    # The assignment's criterion is its task's (``Assignment.criterion`` repeats it).
    locked.criterion = task.criterion
    if campaign.status == Campaign.Status.CLOSED:
        raise DomainError(gettext("This campaign is closed; no more answers are recorded."))
    if task_outputs is None or any(to.task_id != task.pk for to in task_outputs):
        task_outputs = list(TaskOutput.objects.filter(task=task).order_by("slot", "id"))
    else:
        task_outputs = sorted(task_outputs, key=lambda to: (to.slot, to.pk))
    slots = sorted({to.slot for to in task_outputs})
    clean = scores_validate(criterion=locked.criterion, slots=slots, scores=scores)
    # Content checks ticked per slot (RankME's checklist), keys the criterion offers.
    ticked, check_errors = checks_ticked_clean(
        criterion=locked.criterion, slots=slots, checks=checks
    )
    if check_errors:
        raise InvalidScores(check_errors)

    seconds = max(0.0, (now - locked.started_at).total_seconds())
    too_fast = seconds < campaign.min_seconds_per_task
    if too_fast:
        refuse = campaign.min_time_policy == Campaign.MinTimePolicy.REFUSE
        if refuse or not acknowledge_too_fast:
            raise TooFast(
                seconds=seconds, minimum=campaign.min_seconds_per_task, can_confirm=not refuse
            )

    overdue = locked.state == Assignment.State.EXPIRED or (
        locked.expires_at is not None and locked.expires_at <= now
    )
    if overdue and locked.kind == Assignment.Kind.REGULAR and task.kind == Task.Kind.REGULAR:
        # Late but not lost: accepted while the task still has a free place.
        Task.objects.select_for_update(no_key=True).filter(pk=task.pk).order_by().first()
        if places_taken(task.pk, now, excluding=locked.pk) >= campaign.judgements_per_task:
            raise AssignmentExpired(
                gettext(
                    "Your time for this task ran out and it was given to someone else. "
                    "Your answer was not recorded; please continue with the next task."
                )
            )

    judgement = _judgement_insert(
        assignment=locked,
        task=task,
        worker_id=locked.worker_id,
        criterion=locked.criterion,
        started_at=locked.started_at,
        submitted_at=max(now, locked.started_at),
        seconds_on_task=seconds,
        too_fast=too_fast,
        metadata=metadata,
    )
    ranks = dict(zip(slots, ranks_from_scores([clean[s] for s in slots]), strict=True))
    scores_written = _scores_insert.many(
        [
            {
                "judgement": judgement,
                "output_id": to.output_id,
                "slot": to.slot,
                "role": to.role,
                "score": clean[to.slot],
                "rank": ranks[to.slot],
                "coverage": coverage.get(to.slot, ""),
                "checks": ticked.get(to.slot, []),
            }
            for to in task_outputs
        ]
    )
    locked.state = Assignment.State.SUBMITTED
    locked.submitted_at = judgement.submitted_at
    _assignment_submitted(assignment_id=locked.pk, at=locked.submitted_at)

    from annotations.services.quality import quality_after_judgement

    quality_after_judgement(judgement=judgement, scores=scores_written)
    return judgement


@transaction.atomic
def judgements_submit_page(
    *,
    assignments: Sequence[Assignment],
    scores: Mapping[int, Mapping[int, float]],
    acknowledge_too_fast: bool = False,
    checks: Mapping[int, Mapping[int, Iterable[str]]] | None = None,
    metadata: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> list[Judgement]:
    """Set-up 1: record a page (one assignment per criterion) as one judgement each.

    ``scores`` maps criterion id -> slot -> score (``checks`` likewise, criterion id ->
    slot -> ticked content checks). All or nothing: every criterion's
    scores are checked first and any problem raises ``InvalidPageScores`` naming each
    criterion and slot; a later refusal (too fast, place given away) rolls back the
    judgements written before it. Idempotent like ``judgement_submit``: assignments
    already judged return their judgement and are not written again.

    Locks the worker row, then the page's assignment rows in id order (``FOR UPDATE``).
    """
    if not assignments:
        raise DomainError("Nothing to submit: the page has no tasks.")
    Worker.objects.select_for_update(no_key=True).filter(
        pk=assignments[0].worker_id
    ).order_by().first()
    locked = {
        a.pk: a
        for a in Assignment.objects.select_for_update(no_key=True, of=("self",))
        .select_related("criterion")
        .filter(pk__in=[a.pk for a in assignments])
        .order_by("id")
    }
    judged = set(
        Judgement.objects.filter(assignment_id__in=locked).values_list("assignment_id", flat=True)
    )
    errors: dict[int, dict[int, str]] = {}
    for assignment in assignments:
        if assignment.pk in judged:
            continue
        criterion = locked[assignment.pk].criterion
        slots = sorted(
            set(
                TaskOutput.objects.filter(task_id=assignment.task_id)
                .order_by()
                .values_list("slot", flat=True)
            )
        )
        try:
            scores_validate(criterion=criterion, slots=slots, scores=scores.get(criterion.pk, {}))
        except InvalidScores as error:
            errors[criterion.pk] = error.errors
    if errors:
        raise InvalidPageScores(errors)
    return [
        judgement_submit(
            assignment=assignment,
            scores=scores.get(assignment.criterion_id, {}),
            acknowledge_too_fast=acknowledge_too_fast,
            checks=(checks or {}).get(assignment.criterion_id),
            metadata=metadata,
            now=now,
        )
        for assignment in assignments
    ]


# The worker's submit of a page ----------------------------------------------------------


class SubmitOutcome(StrEnum):
    """What became of a worker's submit (``assignment_submit``)."""

    UNKNOWN = "unknown"  # not an assignment of this worker: nothing recorded
    ALREADY = "already"  # submitted before (a second tab, a double click, a retry)
    INVALID = "invalid"  # the answers have not the page's shape (the caller's form said)
    REFUSED = "refused"  # a rule refused them (``Submitted.error``)
    RECORDED = "recorded"


@dataclass(frozen=True)
class PageAnswers:
    """A page's answers as its form cleaned them: per criterion id, slot -> score and slot
    -> content checks ticked (the page's one criterion, or each of a set-up 1 page's);
    whether the worker confirmed an answer given too fast; what each judgement stores as
    ``metadata``."""

    scores: Mapping[int, Mapping[int, float]]
    checks: Mapping[int, Mapping[int, Iterable[str]]]
    acknowledge_too_fast: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Submitted:
    """The outcome of ``assignment_submit``, with the assignment posted to (None when it
    is not the worker's), whether it heads a set-up 1 page, and why it was refused."""

    outcome: SubmitOutcome
    assignment: Assignment | None = None
    together: bool = False
    error: DomainError | None = None


def assignment_submit(
    *,
    worker: Worker,
    assignment_id: int,
    answers: Callable[[list[tuple[Assignment, TaskPage]]], PageAnswers | None],
    entered: Mapping[str, Sequence[str]],
) -> Submitted:
    """Record the worker's answers to the page of their assignment ``assignment_id``, once.

    One transaction: the worker and the assignment are locked first
    (``assignment_to_submit``, so the assignment is read once), then the page is read
    (``page_parts``: one task, or every criterion of a set-up 1 page), ``answers`` (the
    caller's form) reads what was posted against the page (None: not its shape), and the
    answers are recorded (``judgement_submit``, ``judgements_submit_page``).

    Idempotent: an assignment submitted before gives ``ALREADY`` whatever was posted;
    one that is not the worker's gives ``UNKNOWN``; neither writes more than the
    worker's last-seen stamp.

    A refused submit (``INVALID``, or ``REFUSED`` with the rule's ``DomainError``) records
    nothing. On a page of one task everything is rolled back, the last-seen stamp too,
    and then, after the rollback, what was ``entered`` (the posted fields) is kept as the
    assignment's draft (``assignment_draft_save``): a reload or another device brings it
    back, as autosave would. A set-up 1 page is recorded all or nothing by
    ``judgements_submit_page``; its refusal keeps the stamp and writes no draft.
    """
    with transaction.atomic():
        assignment = assignment_to_submit(worker=worker, assignment_id=assignment_id)
        if assignment is None:
            return Submitted(SubmitOutcome.UNKNOWN)
        if assignment.state == Assignment.State.SUBMITTED:
            return Submitted(SubmitOutcome.ALREADY, assignment)
        parts = page_parts(assignment=assignment)
        if len(parts) > 1:
            return _page_record(assignment, parts, answers(parts))
        submitted = _task_record(assignment, parts[0][1], answers(parts))
        if submitted.outcome != SubmitOutcome.RECORDED:
            transaction.set_rollback(True)
    if submitted.outcome != SubmitOutcome.RECORDED:
        assignment_draft_save(
            worker_id=assignment.worker_id, assignment_id=assignment.pk, answers=entered
        )
    return submitted


def _task_record(assignment: Assignment, page: TaskPage, given: PageAnswers | None) -> Submitted:
    """``assignment_submit`` of a page of one task, the assignment locked in the caller's
    transaction (which rolls back on a refusal)."""
    if given is None:
        return Submitted(SubmitOutcome.INVALID, assignment)
    criterion_id = assignment.criterion_id
    try:
        judgement_submit(
            assignment=assignment,
            scores=given.scores.get(criterion_id, {}),
            acknowledge_too_fast=given.acknowledge_too_fast,
            checks=given.checks.get(criterion_id),
            metadata=given.metadata,
            task_outputs=page.task_outputs or None,
            task=assignment.task,
            already_locked=True,
        )
    except DomainError as error:
        return Submitted(SubmitOutcome.REFUSED, assignment, error=error)
    return Submitted(SubmitOutcome.RECORDED, assignment)


def _page_record(
    assignment: Assignment,
    parts: Sequence[tuple[Assignment, TaskPage]],
    given: PageAnswers | None,
) -> Submitted:
    """``assignment_submit`` of a set-up 1 page: every criterion's answers, recorded
    together or not at all."""
    if given is None:
        return Submitted(SubmitOutcome.INVALID, assignment, together=True)
    try:
        judgements_submit_page(
            assignments=[sibling for sibling, _ in parts],
            scores=given.scores,
            checks=given.checks,
            acknowledge_too_fast=given.acknowledge_too_fast,
            metadata=given.metadata,
        )
    except DomainError as error:
        return Submitted(SubmitOutcome.REFUSED, assignment, together=True, error=error)
    return Submitted(SubmitOutcome.RECORDED, assignment, together=True)
