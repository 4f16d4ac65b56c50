"""Reads about criteria: for the designer's pages, and what a worker's instructions
explain (which criterion a new worker judges, the worked example)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from annotations.core.examples import ExampleRow, worked_example
from annotations.models import Campaign, Criterion, Output, Task, TaskOutput, Worker
from annotations.selectors.sessions import is_together
from common.errors import DomainError
from common.queries import prepared


def standard_rated_tasks(*, criterion: Criterion) -> int:
    """How many of the criterion's tasks rate its standard: the uploaded output chosen as
    the standard, or an output with the same text. Building leaves them out (RankME's
    standard was not among the rated outputs), so this is above 0 only for tasks built
    before the standard was chosen."""
    if not criterion.standard_output_id:
        return 0
    standard = Output.objects.filter(pk=criterion.standard_output_id).first()
    if standard is None:
        return 0
    same = Q(output_id=standard.pk) | Q(output__canonical_id=standard.pk)
    if standard.canonical_id:
        same |= Q(output_id=standard.canonical_id) | Q(output__canonical_id=standard.canonical_id)
    return (
        TaskOutput.objects.filter(same, task__criterion=criterion)
        .exclude(task__kind=Task.Kind.IMPORTED)
        .values("task_id")
        .distinct()
        .count()
    )


def criterion_by_name(campaign: Campaign, name: str) -> Criterion | None:
    """The campaign's criterion called ``name``, or None: the one lookup by name (names are
    unique within a campaign). Each caller says what a missing one means to it, or calls
    :func:`criterion_get` for the one refusal."""
    return campaign.criteria.filter(name=name).first()


def criterion_missing(campaign: Campaign, name: str, *, others: Sequence[str] = ()) -> DomainError:
    """The one refusal of a criterion name the campaign does not have; ``others``, the
    names it has, are said after it when the caller has read them."""
    has = f" (it has: {', '.join(others)})" if others else ""
    return DomainError(
        f"Campaign '{campaign.slug}' has no criterion '{name}'{has}.", field="criterion"
    )


def criterion_get(campaign: Campaign, name: str) -> Criterion:
    """The campaign's criterion called ``name``; :func:`criterion_missing`'s DomainError
    when it has none by that name."""
    criterion = criterion_by_name(campaign, name)
    if criterion is None:
        raise criterion_missing(campaign, name)
    return criterion


def criterion_chosen(
    *, campaign: Campaign, criteria: Sequence[Criterion], name: str | None, strict: bool
) -> Criterion | None:
    """The criterion a page shows, among ``criteria`` (the campaign's in order, read
    already for the page's choice of criteria): the one called ``name``, the first when
    no name is given, None when the campaign has no criteria. A name it does not have
    is refused (``strict``: :func:`criterion_missing`'s DomainError) or stands for the
    first."""
    first = criteria[0] if criteria else None
    if not name:
        return first
    chosen = next((c for c in criteria if c.name == name), None)
    if chosen is None and strict:
        raise criterion_missing(campaign, name)
    return chosen or first


def criteria_listed(*, campaign: Campaign) -> QuerySet[Criterion]:
    """The campaign's criteria in order, each with ``has_tasks`` (the criteria page offers
    to delete only those without)."""
    return campaign.criteria.annotate(
        has_tasks=Exists(Task.objects.filter(criterion=OuterRef("pk")))
    )


@prepared(campaign_id=int)
def _criteria_in_order(campaign_id: int) -> QuerySet[Criterion]:
    return Criterion.objects.filter(campaign_id=campaign_id).order_by("position", "name")


def criteria_in_order(*, campaign: Campaign) -> list[Criterion]:
    """The campaign's criteria in the order workers and designers see them (prepared:
    every arrival reads them)."""
    return _criteria_in_order(campaign_id=campaign.pk)


@prepared(campaign_id=int)
def _regular_tasks_by_criterion(campaign_id: int) -> QuerySet[Task, tuple[int, int]]:
    return (
        Task.objects.filter(campaign_id=campaign_id, kind=Task.Kind.REGULAR)
        .order_by()
        .values("criterion_id")
        .annotate(n=Count("id"))
        .values_list("criterion_id", "n")
    )


@prepared(campaign_id=int)
def _workers_by_criterion(campaign_id: int) -> QuerySet[Worker, tuple[int, int]]:
    return (
        Worker.objects.filter(campaign_id=campaign_id, criterion__isnull=False)
        .order_by()
        .values("criterion_id")
        .annotate(n=Count("id"))
        .values_list("criterion_id", "n")
    )


#: (campaign id, its creation, task seed) -> (when read, regular tasks per criterion): each
#: process counts a campaign's tasks at most every ``TASK_COUNTS_FOR`` seconds (counting
#: 6,000 tasks cost PostgreSQL 2 ms, at every arrival). Only the balance of newcomers over
#: the criteria depends on it, so tasks added meanwhile (an adaptive batch) cost balance
#: for that long, never correctness; the campaign's creation time tells apart a campaign
#: that reuses a deleted one's id.
_task_counts: dict[tuple[int, object, int], tuple[float, dict[int, int]]] = {}
TASK_COUNTS_FOR = 30.0


def _tasks_per_criterion(campaign: Campaign) -> dict[int, int]:
    key = (campaign.pk, campaign.created_at, int(campaign.task_seed))
    now = time.monotonic()
    held = _task_counts.get(key)
    if held is not None and now - held[0] < TASK_COUNTS_FOR:
        return held[1]
    counts = dict(_regular_tasks_by_criterion(campaign_id=campaign.pk))
    if counts:  # none built yet: ask again next time
        _task_counts[key] = (now, counts)
    return counts


def criterion_for_newcomer(
    *, campaign: Campaign, criteria: list[Criterion] | None = None
) -> int | None:
    """Set-up 2 with several criteria: the criterion a new worker will judge, the one
    with the fewest workers per task so far (ties: the first in the campaign's order).

    One criterion per worker, as RankME's set-up 2 rated each criterion in a study of
    its own: the worker's instructions explain the criterion they judge and no other.
    None in set-up 1 (every page has every criterion), with one criterion, or before
    any task is built (any criterion, as before)."""
    if is_together(campaign):
        return None
    if criteria is None:
        criteria = criteria_in_order(campaign=campaign)
    order = [c.pk for c in criteria]
    if len(order) < 2:
        return None
    tasks = _tasks_per_criterion(campaign)
    # Prepared: every arrival in set-up 2 counts them (fresh: a crowd arriving together
    # must spread over the criteria).
    workers = dict(_workers_by_criterion(campaign_id=campaign.pk))
    open_ = [pk for pk in order if tasks.get(pk)]
    if not open_:
        return None
    return min(open_, key=lambda pk: (workers.get(pk, 0) / tasks[pk], order.index(pk)))


def criteria_explained(
    *,
    campaign: Campaign,
    worker: Worker | None = None,
    criterion_id: int | None = None,
    criteria: list[Criterion] | None = None,
) -> list[Criterion]:
    """The criteria a worker's instructions explain: the one they judge (their own, or
    ``criterion_id`` chosen for a worker not yet created), else all of the campaign's
    (``criteria``, when read already)."""
    if criteria is None:
        criteria = criteria_in_order(campaign=campaign)
    own = worker.criterion_id if worker is not None else criterion_id
    mine = [c for c in criteria if c.pk == own]
    return mine or criteria


@dataclass(frozen=True)
class Example:
    """A criterion's worked example: the designer's own text (Markdown), or the rows
    generated from the standard (:func:`annotations.core.examples.worked_example`)."""

    markdown: str
    rows: tuple[ExampleRow, ...]

    def __bool__(self) -> bool:
        return bool(self.markdown or self.rows)


def example_for(criterion: Criterion) -> Example:
    """The worked example shown under ``criterion`` on the worker's instructions (as the
    worker reads the criterion: pass it through ``criterion_in_language`` first). The
    generated one is seeded by the criterion's id, so it is the same on every page."""
    if criterion.example.strip():
        return Example(markdown=criterion.example, rows=())
    if criterion.scale != Criterion.Scale.MAGNITUDE:
        return Example(markdown="", rows=())
    rows = worked_example(
        standard_text=criterion.standard_text,
        standard=criterion.standard,
        content_checks=list(criterion.content_checks or []),
        rng=np.random.default_rng(criterion.pk or 0),
        input_shown=criterion.show_input,
    )
    return Example(markdown="", rows=tuple(rows))


#: A magnitude criterion that has no standard yet: the one statement of the rule that a
#: magnitude criterion's tasks are built, and its campaign launched, only once workers
#: have a standard to relate scores to.
WITHOUT_STANDARD = Q(scale=Criterion.Scale.MAGNITUDE, standard_text__regex=r"^\s*$")


def criteria_without_standard(*, campaign: Campaign) -> QuerySet[Criterion]:
    """The campaign's criteria :data:`WITHOUT_STANDARD`, in page order."""
    return Criterion.objects.filter(WITHOUT_STANDARD, campaign=campaign).order_by(
        "position", "name"
    )


def standard_outputs(*, criteria: list[Criterion]) -> set[int]:
    """The uploaded outputs chosen as ``criteria``'s standards, and those they share a
    text with (their canonical outputs): building leaves them out of every task (one
    design serves all the criteria; RankME's standard stood outside the rated set), and
    the plan counts the tasks without them."""
    standards = {c.standard_output_id for c in criteria if c.standard_output_id}
    if standards:
        standards |= set(
            Output.objects.filter(pk__in=standards, canonical__isnull=False).values_list(
                "canonical_id", flat=True
            )
        )
    return standards


def standard_outputs_left_out(*, criteria: list[Criterion]) -> Q:
    """The outputs no task rates: those :func:`standard_outputs` names, and those whose
    text they share (their canonical output is one of them). The one rule the build, the
    plan and the preview leave out by, and name."""
    standards = standard_outputs(criteria=criteria)
    return Q(pk__in=standards) | Q(canonical_id__in=standards)


def standard_outputs_named(*, campaign: Campaign, criteria: list[Criterion]) -> list[str]:
    """The outputs :func:`standard_outputs_left_out` leaves out of every task, each as
    "system for item" (the build and the plan say which systems lose which items)."""
    if not any(c.standard_output_id for c in criteria):
        return []  # no standard picked from the outputs: nothing to read
    rows = (
        Output.objects.filter(standard_outputs_left_out(criteria=criteria), item__campaign=campaign)
        .order_by("item__external_id", "system__label")
        .values_list("system__label", "item__external_id")
    )
    return [f"{system} for {item}" for system, item in rows]


def _standard_outputs(*, campaign: Campaign, query: str = "") -> QuerySet[Output]:
    """Uploaded outputs with a text, of the items matching ``query`` (an item's id, or a
    text found in its input, in the output or in the system's label), in item order."""
    outputs = Output.objects.filter(item__campaign=campaign).exclude(text="")
    query = query.strip()
    if query:
        outputs = outputs.filter(
            Q(item__external_id__iexact=query)
            | Q(item__input__icontains=query)
            | Q(text__icontains=query)
            | Q(system__label__iexact=query)
        )
    return outputs


def standard_candidates(
    *,
    campaign: Campaign,
    limit: int = 200,
    include: int | Iterable[int | None] | None = None,
    query: str = "",
) -> list[Output]:
    """Uploaded outputs a designer may pick a standard from, with their item, in item
    order (at most ``limit``; empty placeholders, e.g. of WMT imports, left out; with
    ``query`` only those of :func:`_standard_outputs`), plus the outputs with the ids
    ``include`` (a criterion's current standard, the one just chosen) wherever they
    are. :func:`standard_candidates_total` says how many match in all."""
    related = Output.objects.filter(item__campaign=campaign).select_related("item", "system")
    outputs = list(
        _standard_outputs(campaign=campaign, query=query)
        .select_related("item", "system")
        .order_by("item__position", "item_id", "system__label")[:limit]
    )
    wanted = [include] if isinstance(include, int) else list(include or [])
    have = {o.pk for o in outputs}
    missing = [pk for pk in wanted if pk is not None and pk not in have]
    if missing:
        outputs = [*related.filter(pk__in=missing), *outputs]
    return outputs


def standard_candidates_total(*, campaign: Campaign, query: str = "") -> int:
    """How many outputs :func:`standard_candidates` chooses from (before its limit)."""
    return _standard_outputs(campaign=campaign, query=query).count()


def setup_input_conflict(*, campaign: Campaign) -> str:
    """Set-up 1 shows every criterion of an item on one page, under one input: a
    criterion that hides the input (RankME judges naturalness without it) would be
    judged with it in view beside criteria that show it. Says so ("" when no conflict).
    """
    if campaign.setup != Campaign.Setup.TOGETHER:
        return ""
    criteria = list(campaign.criteria.order_by("position", "name"))
    hidden = [c.name for c in criteria if not c.show_input]
    shown = [c.name for c in criteria if c.show_input]
    if not hidden or not shown:
        return ""
    return (
        f"Set-up 1 shows all criteria of an item on one page, with the input when any of "
        f"them shows it: {', '.join(hidden)} hide{'s' if len(hidden) == 1 else ''} the input "
        f"but {', '.join(shown)} show{'s' if len(shown) == 1 else ''} it, so "
        f"{', '.join(hidden)} would be judged with the input in view. Use set-up 2 (one "
        "criterion per task; RankME judges naturalness without the input), or show the "
        "input for every criterion."
    )
