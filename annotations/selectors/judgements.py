"""Judgements, the reads: which judgements count (the one rule the monitor, the exports,
the payment page and the rankings read), and the task page a worker gives a judgement on
(one task, or in set-up 1 every criterion of a group on one page).

A judgement counts when it answers a real task (a task of the design or one imported
from a finished evaluation, never an attention check) for the first time (not a repeat
assignment); of its scores, those of the regular outputs count (never an attention
check's degraded copy). Judgements of workers an organizer excluded stay stored and
count unless the reader leaves them out (``exclude_excluded_workers``): rankings do by
default, exports keep them and mark the worker.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch, Q, QuerySet

from annotations.core.inputs import mr_attributes
from annotations.core.languages import direction, translated_for
from annotations.core.slices import LANGUAGE, attribute_name_check
from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Item,
    Judgement,
    JudgementScore,
    Task,
    TaskOutput,
)
from annotations.selectors.criteria import criterion_by_name
from annotations.selectors.sessions import criterion_in_language, is_together
from common.queries import prepared

COUNTED_TASK_KINDS: tuple[str, ...] = (Task.Kind.REGULAR, Task.Kind.IMPORTED)


def slice_q(where: Mapping[str, str] | None, *, prefix: str = "") -> Q:
    """Judgements of the items in a slice (``core.slices``): every ``name=value`` of
    ``where`` met by the task's item attributes (``language``: the task's language). An
    empty slice is every item. One ``Q`` of all the conditions, built in one step (a
    chain of ``&=`` copies the conditions so far at each step: quadratic)."""
    lookups = {
        f"{prefix}task__language"
        if name == LANGUAGE
        else f"{prefix}task__item__attributes__{attribute_name_check(name)}": value
        for name, value in (where or {}).items()
    }
    return Q(**lookups)


def counted_q(
    *,
    prefix: str = "",
    exclude_excluded_workers: bool = False,
    where: Mapping[str, str] | None = None,
) -> Q:
    """The rule as a ``Q`` on judgements; ``prefix`` reaches them from another model
    (``"judgement__"`` from ``JudgementScore``); ``where`` keeps a slice of the items."""
    q = Q(**{f"{prefix}task__kind__in": COUNTED_TASK_KINDS}) & ~Q(
        **{f"{prefix}assignment__kind": Assignment.Kind.REPEAT}
    )
    if exclude_excluded_workers:
        q &= ~Q(**{f"{prefix}worker__excluded": True})
    return q & slice_q(where, prefix=prefix)


def regular_q(*, prefix: str = "") -> Q:
    """The scores of a counted judgement that count, as a ``Q``: those of its regular
    outputs, never an attention check's degraded copy. A task's outputs (``TaskOutput``)
    carry the same ``role``, so the ``Q`` also keeps the outputs a task shows for real;
    ``prefix`` reaches the role from another model (``"scores__"`` from ``Judgement``)."""
    return Q(**{f"{prefix}role": TaskOutput.Role.REGULAR})


def score_counts(*, role: str) -> bool:
    """:func:`regular_q` for a score (or task output) already read: by its ``role``."""
    return role == TaskOutput.Role.REGULAR


def judgement_counts(*, task_kind: str, assignment_kind: str | None) -> bool:
    """The rule for a judgement already read as values (its task's and assignment's kind)."""
    return task_kind in COUNTED_TASK_KINDS and assignment_kind != Assignment.Kind.REPEAT


def judgement_is_repeat(*, task_kind: str, assignment_kind: str | None) -> bool:
    """A second answer to a real task (kept for intra-annotator agreement, not counted)."""
    return task_kind in COUNTED_TASK_KINDS and assignment_kind == Assignment.Kind.REPEAT


def judgements_counted(
    *,
    criterion: Criterion | None = None,
    campaign: Campaign | None = None,
    exclude_excluded_workers: bool = False,
    where: Mapping[str, str] | None = None,
) -> QuerySet[Judgement]:
    """The judgements that count, of one criterion or of a whole campaign (of a slice of
    its items with ``where``)."""
    qs = Judgement.objects.filter(
        counted_q(exclude_excluded_workers=exclude_excluded_workers, where=where)
    )
    if criterion is not None:
        qs = qs.filter(criterion=criterion)
    if campaign is not None:
        qs = qs.filter(criterion__campaign=campaign)
    return qs


def scores_counted(
    *,
    criterion: Criterion,
    exclude_excluded_workers: bool = False,
    where: Mapping[str, str] | None = None,
) -> QuerySet[JudgementScore]:
    """The scores that count: the regular outputs' scores of the counted judgements (of a
    slice of the items with ``where``)."""
    return JudgementScore.objects.filter(
        counted_q(
            prefix="judgement__", exclude_excluded_workers=exclude_excluded_workers, where=where
        ),
        regular_q(),
        judgement__criterion=criterion,
    )


def judgements_left_out(
    *, criterion: Criterion, where: Mapping[str, str] | None = None
) -> dict[str, int]:
    """How many of a criterion's judgements (of a slice with ``where``) the rule leaves
    out, and why: ``attention_checks`` (answers to an attention check), ``repeats``
    (second answers to a task, other than attention checks)."""
    judgements = Judgement.objects.filter(slice_q(where), criterion=criterion)
    return {
        "attention_checks": judgements.filter(task__kind=Task.Kind.ATTENTION).count(),
        "repeats": judgements.exclude(task__kind=Task.Kind.ATTENTION)
        .filter(assignment__kind=Assignment.Kind.REPEAT)
        .count(),
    }


def item_attributes(*, campaign: Campaign) -> dict[str, list[str]]:
    """Every attribute of the campaign's items with its values (sorted), for choosing a
    slice; ``language`` too when the campaign has more than one."""
    found: dict[str, set[str]] = {}
    if campaign.is_multilingual:
        found[LANGUAGE] = set(campaign.languages)
    for attributes in campaign.items.exclude(attributes={}).values_list("attributes", flat=True):
        for name, value in attributes.items():
            found.setdefault(name, set()).add(str(value))
    return {name: sorted(values) for name, values in sorted(found.items())}


# The task page ------------------------------------------------------------------------


@dataclass(frozen=True)
class SlotView:
    slot: int
    letter: str
    text: str


@dataclass(frozen=True)
class TaskPage:
    """What the task page shows: the question, the input, the outputs in display order."""

    campaign: Campaign
    criterion: Criterion
    item: Item
    input_pairs: list[tuple[str, str]] | None
    slots: list[SlotView]
    assignment: Assignment | None
    # The task's rows as read for the page (slot order), so a submit need not read them
    # again; empty when the page was not built from a stored task.
    task_outputs: tuple[TaskOutput, ...] = ()
    # The outputs' language (a task never mixes them) and the input's, as BCP 47 tags
    # with their writing direction: every text carries ``lang`` and ``dir``.
    language: str = "en"
    direction: str = "ltr"
    input_language: str = "en"
    input_direction: str = "ltr"

    @property
    def letters(self) -> dict[int, str]:
        return {s.slot: s.letter for s in self.slots}

    @property
    def question_language(self) -> str:
        """The question's language: the outputs' where the designer translated it into
        theirs, else the campaign's (the question as entered, a fallback)."""
        default = self.campaign.default_language
        if self.language == default:
            return default
        given = translated_for(self.criterion.translations, self.language)
        return self.language if given.get("question") else default

    @property
    def question_direction(self) -> str:
        return direction(self.question_language)


def _letter(i: int) -> str:
    letters = string.ascii_uppercase
    return letters[i] if i < len(letters) else f"{letters[i // 26 - 1]}{letters[i % 26]}"


@prepared(task_id=int)
def _task_outputs(loaded: bool, task_id: int) -> QuerySet[TaskOutput]:
    """A task's outputs (prepared: every task page reads them), with the task's criterion
    and item unless they are ``loaded`` (one statement, not three)."""
    rows = TaskOutput.objects.filter(task_id=task_id).select_related("output").order_by()
    return rows if loaded else rows.select_related("task__criterion", "task__item")


def task_outputs_with_task(*, task_id: int) -> list[TaskOutput]:
    """A task's outputs, each with the task's criterion and item (``task_page_for`` reads
    no more when given them)."""
    return _task_outputs(False, task_id=task_id)


def _task_page(
    *,
    task: Task,
    order: list[int],
    assignment: Assignment | None,
    campaign: Campaign,
    read: Sequence[TaskOutput] | None = None,
) -> TaskPage:
    loaded = Task.criterion.is_cached(task) and Task.item.is_cached(task)  # type: ignore[attr-defined]
    if read is None or any(to.task_id != task.pk for to in read):
        read = _task_outputs(loaded, task_id=task.pk)
    else:
        loaded = False  # the criterion and item come with what was read
    # A task has a handful of outputs: sorted here rather than by an ORDER BY to build.
    task_outputs = sorted(read, key=lambda to: (to.slot, to.pk))
    if not loaded and task_outputs:
        task.criterion = task_outputs[0].task.criterion
        task.item = task_outputs[0].task.item
    text_by_slot: dict[int, str] = {}
    for to in task_outputs:
        to.task = task
        # The first output of a slot stands for the merged ones (identical text); a
        # degraded copy shows its own text.
        if to.slot not in text_by_slot or to.role == TaskOutput.Role.DEGRADED:
            text_by_slot[to.slot] = to.shown_text
    order = [s for s in order if s in text_by_slot] + sorted(set(text_by_slot) - set(order))
    criterion, item = task.criterion, task.item
    if task.language != campaign.default_language:
        criterion = criterion_in_language(criterion, task.language)
    return TaskPage(
        campaign=campaign,
        criterion=criterion,
        item=item,
        language=task.language,
        direction=direction(task.language),
        input_language=item.language,
        input_direction=direction(item.language),
        input_pairs=mr_attributes(item.input) if criterion.show_input else None,
        slots=[
            SlotView(slot=s, letter=_letter(i), text=text_by_slot[s]) for i, s in enumerate(order)
        ],
        assignment=assignment,
        task_outputs=tuple(task_outputs),
    )


def task_page_for(
    *, assignment: Assignment, task_outputs: Sequence[TaskOutput] | None = None
) -> TaskPage:
    """The task page of an assignment (expects ``task`` and its campaign loaded with it, as
    ``assignment_for_worker`` does). One statement: the task's outputs, with its criterion
    and item unless they are loaded already; none when ``task_outputs`` (as
    ``task_outputs_with_task`` reads them) are given."""
    task = assignment.task
    return _task_page(
        task=task,
        order=list(assignment.display_order),
        assignment=assignment,
        campaign=task.campaign,
        read=task_outputs,
    )


def task_page_preview(*, task: Task) -> TaskPage:
    """The task page as a worker would see the task, in slot order; nothing is stored."""
    return _task_page(task=task, order=[], assignment=None, campaign=task.campaign)


def page_assignments(*, assignment: Assignment) -> list[Assignment]:
    """The assignments shown on one page with ``assignment``, in criterion order.

    ``[assignment]`` in set-up 2; in set-up 1 every assignment of the worker on the
    task's group (and the same hand-out: same state and start), with tasks, criteria,
    items and the campaign loaded.
    """
    task = assignment.task
    campaign = task.campaign
    if (
        not is_together(campaign)
        or task.group is None
        or assignment.kind != Assignment.Kind.REGULAR
    ):
        return [assignment]
    siblings = list(
        Assignment.objects.filter(
            worker_id=assignment.worker_id,
            kind=Assignment.Kind.REGULAR,
            task__campaign_id=campaign.pk,
            task__kind=task.kind,
            task__group=task.group,
        )
        .select_related("task__campaign", "task__criterion", "task__item")
        .order_by("task__criterion__position", "task__criterion__name", "id")
    )
    for sibling in siblings:
        sibling.task.campaign = campaign
    return siblings or [assignment]


def page_parts(
    *, assignment: Assignment, task_outputs: Sequence[TaskOutput] | None = None
) -> list[tuple[Assignment, TaskPage]]:
    """The page of ``assignment``: each assignment shown on it (``page_assignments``) with
    its criterion's part of the task page, in criterion order. One part in set-up 2 (the
    assignment itself, its page built from ``task_outputs`` when given, as
    ``task_page_for`` takes them), one per criterion of the group in set-up 1."""
    siblings = page_assignments(assignment=assignment)
    if len(siblings) > 1:
        return [(sibling, task_page_for(assignment=sibling)) for sibling in siblings]
    return [(assignment, task_page_for(assignment=assignment, task_outputs=task_outputs))]


def group_tasks(*, task: Task) -> list[Task]:
    """Set-up 1: the tasks shown on one page with ``task`` (its group), in criterion order;
    ``[task]`` when the campaign gives each criterion its own tasks."""
    campaign = task.campaign
    if not is_together(campaign) or task.group is None or task.kind != Task.Kind.REGULAR:
        return [task]
    return list(
        Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR, group=task.group)
        .select_related("campaign", "criterion", "item")
        .order_by("criterion__position", "criterion__name", "id")
    )


def preview_task(
    *,
    campaign: Campaign,
    task_id: int | None = None,
    criterion_name: str | None = None,
    language: str | None = None,
) -> Task | None:
    """A task of the campaign to preview: the one asked for, else the first regular one
    (of the named criterion when one is given; in ``language`` when the campaign has
    tasks in it, so that a German preview shows a German task)."""
    qs = Task.objects.filter(campaign=campaign).select_related("campaign", "criterion", "item")
    if task_id is not None:
        return qs.filter(pk=task_id).first()
    if criterion_name:
        criterion = criterion_by_name(campaign, criterion_name)
        if criterion is None:
            return None
        qs = qs.filter(criterion=criterion)
    if language and qs.filter(language=language).exists():
        qs = qs.filter(language=language)
    return (
        qs.filter(kind=Task.Kind.REGULAR).order_by("criterion__position", "number", "id").first()
        or qs.order_by("id").first()
    )


def preview_next_task(*, task: Task) -> Task | None:
    """The task a preview of ``task`` offers next: the following regular task of its
    criterion in the design's order (the first again after the last), so that a designer
    can page through every item's task before launch; None when it is the only one."""
    tasks = Task.objects.filter(
        campaign_id=task.campaign_id, criterion_id=task.criterion_id, kind=Task.Kind.REGULAR
    ).order_by("number", "id")
    after = tasks.filter(Q(number__gt=task.number) | Q(number=task.number, id__gt=task.pk))
    found = after.select_related("item").first() or tasks.select_related("item").first()
    return None if found is None or found.pk == task.pk else found


def judgements_listed(
    *,
    campaign: Campaign,
    criterion_name: str = "",
    worker_external_id: str = "",
    submitted_after: datetime | None = None,
) -> QuerySet[Judgement]:
    """Every judgement of the campaign (counted or not), oldest first, with its criterion,
    worker and scores (their outputs' systems and items): the judgements API's list.
    Only those of the criterion called ``criterion_name``, of the worker with
    ``worker_external_id`` and submitted after ``submitted_after`` when given (an unknown
    name or id lists none)."""
    qs = Judgement.objects.filter(criterion__campaign=campaign)
    if criterion_name:
        qs = qs.filter(criterion__name=criterion_name)
    if worker_external_id:
        qs = qs.filter(worker__external_id=worker_external_id)
    if submitted_after:
        qs = qs.filter(submitted_at__gt=submitted_after)
    scores = JudgementScore.objects.select_related("output__system", "output__item").order_by(
        "slot", "id"
    )
    return (
        qs.select_related("criterion", "worker")
        .prefetch_related(Prefetch("scores", queryset=scores))
        .order_by("submitted_at", "id")
    )
