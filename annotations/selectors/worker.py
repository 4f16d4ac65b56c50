"""Reads for the crowd-worker pages: the task page, progress, quality results."""

from __future__ import annotations

import copy
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet

from annotations.core.languages import CAMPAIGN_TEXTS, direction, translated_for
from annotations.models import Assignment, Campaign, Criterion, Item, Task, TaskOutput, Worker
from common.queries import prepared

_MR_PAIR = re.compile(r"\s*([^\[\],]+?)\s*\[([^\]]*)\]\s*(?:,|$)")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def attribute_label(name: str) -> str:
    """``eatType`` -> ``eat type``; ``customer rating`` stays."""
    return _CAMEL.sub(" ", name.strip()).lower()


def mr_attributes(text: str) -> list[tuple[str, str]] | None:
    """An E2E meaning representation as (attribute, value) pairs, or None if it is not one.

    >>> mr_attributes("name[Cotto], eatType[coffee shop]")
    [('name', 'Cotto'), ('eat type', 'coffee shop')]
    """
    text = text.strip()
    pairs: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        match = _MR_PAIR.match(text, pos)
        if match is None or match.end() == pos:
            return None
        pairs.append((attribute_label(match.group(1)), match.group(2).strip()))
        pos = match.end()
    return pairs or None


@dataclass(frozen=True)
class SlotView:
    slot: int
    letter: str
    text: str


@dataclass(frozen=True)
class Progress:
    done: int
    total: int

    @property
    def current(self) -> int:
        return min(self.done + 1, self.total)


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


def criterion_in_language(criterion: Criterion, language: str) -> Criterion:
    """The criterion as a worker judging in ``language`` reads it: its question, Likert
    level descriptors and standard text from ``Criterion.translations[language]`` where
    the designer gave them (a tag with the same base language stands in, as on every worker
    page: ``translated_for``), else as entered. A copy for display, never saved."""
    given = translated_for(criterion.translations, language)
    if not given:
        return criterion
    shown = copy.copy(criterion)
    shown.question = given.get("question") or criterion.question
    shown.standard_text = given.get("standard_text") or criterion.standard_text
    shown.example = given.get("example") or criterion.example
    levels = given.get("levels") or []
    if levels and criterion.likert_levels:
        translated = []
        for level, text in zip(criterion.likert_levels, levels, strict=False):
            if isinstance(text, dict):
                level = {
                    **level,
                    **{k: v for k, v in text.items() if k in ("label", "descriptor") and v},
                }
            elif text:
                level = {**level, "descriptor": str(text)}
            translated.append(level)
        translated += criterion.likert_levels[len(translated) :]
        shown.scale_settings = {**criterion.scale_settings, "levels": translated}
    return shown


def campaign_in_language(campaign: Campaign, language: str) -> Campaign:
    """The campaign's worker-facing texts (name, description, instructions, consent) in
    ``language`` where the designer gave them (``Campaign.translations``, read as
    ``translated_for`` reads it). A copy for display, never saved."""
    given = translated_for(campaign.translations, language)
    if not given:
        return campaign
    shown = copy.copy(campaign)
    for field in CAMPAIGN_TEXTS:
        if given.get(field):
            setattr(shown, field, given[field])
    return shown


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
    if task.language != (campaign.languages or ["en"])[0]:
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


@prepared(worker_id=int, slug=str)
def _session_worker(worker_id: int, slug: str) -> QuerySet[Worker]:
    return (
        Worker.objects.select_related("campaign")
        .filter(pk=worker_id, campaign__slug=slug)
        .order_by()[:1]
    )


def session_worker(*, worker_id: int, slug: str) -> Worker | None:
    """The worker of a session link, with its campaign, if the link's campaign is theirs.

    Every fetch and submit reads it first: the query is prepared (compiled once)."""
    return next(iter(_session_worker(worker_id=worker_id, slug=slug)), None)


@prepared(assignment_id=int, worker_id=int)
def _assignment_of(with_campaign: bool, assignment_id: int, worker_id: int) -> QuerySet[Assignment]:
    related = ("task__criterion", "task__item") + (() if with_campaign else ("task__campaign",))
    return (
        Assignment.objects.filter(pk=assignment_id, worker_id=worker_id)
        .select_related(*related)
        .order_by()[:1]
    )


def assignment_for_worker(*, worker: Worker, assignment_id: int) -> Assignment | None:
    """The worker's assignment with its task, criterion, item and campaign (the worker's,
    when it was read with the worker, else read with the assignment)."""
    campaign = worker.campaign if Worker.campaign.is_cached(worker) else None  # type: ignore[attr-defined]
    assignment = next(
        iter(
            _assignment_of(campaign is not None, assignment_id=assignment_id, worker_id=worker.pk)
        ),
        None,
    )
    if assignment is not None and campaign is not None:
        assignment.task.campaign = campaign
    return assignment


def is_together(campaign: Campaign) -> bool:
    return campaign.setup == Campaign.Setup.TOGETHER


def pages_done(*, worker: Worker, campaign: Campaign) -> int:
    """Pages the worker submitted: assignments, counted once per group in set-up 1."""
    rows = Assignment.objects.filter(worker=worker, state=Assignment.State.SUBMITTED)
    if not is_together(campaign):
        return rows.count()
    keys = {
        (f"group-{task_kind}", group)
        if group is not None and kind == Assignment.Kind.REGULAR
        else ("assignment", pk)
        for pk, kind, group, task_kind in rows.values_list(
            "pk", "kind", "task__group", "task__kind"
        )
    }
    return len(keys)


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


def worker_progress(*, worker: Worker, campaign: Campaign) -> Progress:
    """Pages done of the worker's ``tasks_per_worker`` (a group is one page in set-up 1)."""
    return Progress(
        done=pages_done(worker=worker, campaign=campaign), total=campaign.tasks_per_worker
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
        qs = qs.filter(criterion__name=criterion_name)
    if language and qs.filter(language=language).exists():
        qs = qs.filter(language=language)
    return (
        qs.filter(kind=Task.Kind.REGULAR).order_by("criterion__position", "number", "id").first()
        or qs.order_by("id").first()
    )
