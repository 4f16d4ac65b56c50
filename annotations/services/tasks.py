"""Task design: the campaign's tasks, built from ``annotations.core.design``.

``tasks_build`` turns the campaign's systems, items and outputs into integer arrays,
asks ``annotations.core.design.design_tasks`` for a balanced design per criterion and writes
the tasks and their ``TaskOutput`` slots in bulk, in one transaction. ``tasks_add``
writes more of them, numbered on, to built ones (adaptive design's batches, chosen by
``ranking.services.adaptive``).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from django.db import transaction
from django.db.models import Max

from annotations.core.design import Design, balance_of, default_tasks_per_item, design_tasks
from annotations.models import Assignment, Campaign, Criterion, Output, Task, TaskOutput
from annotations.selectors import criteria as criteria_selectors
from annotations.selectors.campaigns import campaign_build_blockers, campaign_design_token
from annotations.selectors.sessions import is_together
from annotations.services.bulk import analyze_when_grown
from annotations.services.campaigns import campaign_settings_check, campaign_settings_update
from annotations.services.criteria import criterion_from_preset
from common.errors import DomainError, StaleRequest
from common.queries import row_lock

BATCH_SIZE = 2000
# Kinds the design makes (attention checks are copies of design tasks); imported tasks
# belong to finished judgements and are never touched here.
DESIGN_KINDS = (Task.Kind.REGULAR, Task.Kind.ATTENTION)
SEED_LIMIT = 2**63  # Campaign.task_seed is a signed 64-bit integer.
# The random stream of the one design all criteria share in set-up 1 ("together").
TOGETHER_STREAM = "<together>"


@dataclass(frozen=True)
class CriterionDesign:
    """The design built for one criterion and how balanced it is.

    ``counts[s]`` is the number of tasks of system ``systems[s]``; ``pairs[s][t]`` the
    number of tasks systems ``s`` and ``t`` share. Pair statistics are over distinct
    pairs.
    """

    criterion: str
    tasks: int
    task_outputs: int
    merged_outputs: int
    skipped_items: int
    systems: tuple[str, ...]
    counts: tuple[int, ...]
    pairs: tuple[tuple[int, ...], ...]
    count_min: int
    count_max: int
    pair_min: int
    pair_max: int
    pair_mean: float
    pair_std: float


def _span(low: int, high: int) -> str:
    """``"750"`` or ``"749-751"``: a range that is one number is written once."""
    return str(low) if low == high else f"{low}-{high}"


@dataclass(frozen=True)
class DesignReport:
    """What ``tasks_build`` made."""

    campaign: str
    seed: int
    k: int
    tasks_per_item: int
    deleted_tasks: int
    criteria: tuple[CriterionDesign, ...]
    #: outputs left out of every task as a standard or a standard's identical text, each
    #: "system for item" (``criteria_selectors.standard_outputs_named``)
    standards_left_out: tuple[str, ...] = ()

    @property
    def tasks(self) -> int:
        return sum(c.tasks for c in self.criteria)

    @property
    def summary(self) -> str:
        parts = [
            f"{c.criterion}: {c.tasks} tasks, each system in {_span(c.count_min, c.count_max)}, "
            f"each pair together in {_span(c.pair_min, c.pair_max)}"
            for c in self.criteria
        ]
        merged = sum(c.merged_outputs for c in self.criteria)
        shown_once = (
            f"; {merged} output{'s are' if merged != 1 else ' is'} identical to another in "
            f"its task and shown once with it, so some tasks show fewer than {self.k} texts"
            if merged
            else ""
        )
        left = self.standards_left_out
        not_rated = (
            f". Not rated, in any criterion: {', '.join(left[:10])}"
            f"{f' and {len(left) - 10} more' if len(left) > 10 else ''} (an output chosen as a "
            "standard, and any with its text, is left out of every task; those items are "
            "rated without them)"
            if left
            else ""
        )
        # An item whose standard is left out has fewer outputs for its tasks.
        up_to = "up to " if left else ""
        return (
            f"{self.tasks} tasks of {up_to}{self.k} outputs (seed {self.seed}){shown_once}. "
            + "; ".join(parts)
            + not_rated
        )


def _criterion_seed(seed: int, name: str) -> list[int]:
    # One stream per criterion, keyed by its name: building one criterion alone gives
    # the same tasks as building it together with the others.
    return [seed, zlib.crc32(name.encode())]


def _refuse_unless_draft(campaign: Campaign) -> None:
    # Tasks are the design workers are handed: built (and rebuilt) in a draft only.
    if campaign.status != Campaign.Status.DRAFT:
        raise DomainError("Tasks can be built only while the campaign is a draft.")


def _chosen_criteria(
    campaign: Campaign, criteria: Sequence[Criterion | str] | None
) -> list[Criterion]:
    if "criteria" in campaign_build_blockers(campaign=campaign):
        raise DomainError(f"Campaign '{campaign.slug}' has no criteria: add one first.")
    available = criteria_selectors.criteria_in_order(campaign=campaign)
    by_name = {c.name: c for c in available}
    chosen: list[Criterion] = []
    for c in available if criteria is None else criteria:
        name = c if isinstance(c, str) else c.name
        if name not in by_name or (not isinstance(c, str) and c.campaign_id != campaign.pk):
            raise criteria_selectors.criterion_missing(campaign, name, others=list(by_name))
        if by_name[name] not in chosen:
            chosen.append(by_name[name])
    if not chosen:
        raise DomainError("Choose at least one criterion.")
    return chosen


def _refuse_without_standard(campaign: Campaign) -> None:
    """A magnitude criterion is built with its standard chosen: the build leaves the
    standard out of the tasks, and a criterion with tasks can no longer change, so a
    standard chosen later could not be (the campaign could then never launch)."""
    missing = list(
        criteria_selectors.criteria_without_standard(campaign=campaign).values_list(
            "name", flat=True
        )
    )
    if missing:
        names = ", ".join(f"'{name}'" for name in missing)
        raise DomainError(
            f"Criterion {names} uses magnitude estimation but has no standard yet: choose "
            "the standard output workers relate their scores to on its criterion page, "
            "then build. (The build leaves the standard out of the tasks, and a criterion "
            "with tasks can no longer change.)",
            field="criteria",
        )


@transaction.atomic
def tasks_build(
    *,
    campaign: Campaign,
    seed: int | None = None,
    criteria: Sequence[Criterion | str] | None = None,
    tasks_per_item: int | None = None,
    rebuild: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> DesignReport:
    """Build the campaign's tasks for every (or the given) criteria, balanced and seeded.

    For every item and criterion: tasks of ``k = min(campaign.outputs_per_task,
    n_systems)`` distinct systems (``k = 1`` allowed); by default ``ceil(n_systems / k)`` tasks per item so
    that every output of every item is judged (the last task is filled up with the
    systems judged least so far, choosing those that met least), or ``tasks_per_item``.
    Per-system counts over the whole criterion differ by at most one when every system
    has an output for every item; pairs are balanced greedily (``annotations.core.design``).
    Items where fewer than two systems have an output get no task.

    Set-up 1 (``campaign.setup == "together"``): one design is built and every criterion
    gets a copy of each designed task (the same item, the same outputs in the same
    slots); the copies share ``Task.group``, the page a worker rates all criteria on.
    Each criterion keeps its own tasks, comparisons and rankings. Only all criteria at
    once can be built. Set-up 2 (``"separate"``): one design per criterion.

    ``outputs_per_task = 1`` is PlainME: one output per task, scored against the
    standard alone; tasks are spread evenly over the systems and items with a single
    system's output are judged too.

    Identical outputs of an item (``Output.canonical``) share one slot when
    ``campaign.merge_identical_outputs``: the worker reads the text once.

    The same ``seed`` gives the same tasks; without one a fresh seed is drawn (or the
    stored one reused when other criteria already have tasks, so one seed describes the
    campaign). The seed is stored in ``campaign.task_seed``.

    Refuses a campaign that is not a draft (on every path: the pages, the API and the
    ``build_tasks`` command), and criteria that have tasks already unless ``rebuild``;
    rebuilding deletes them (regular and attention tasks), and is refused when any of
    them has an assignment. Locks the campaign row for the duration of the build.
    """
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    _refuse_unless_draft(campaign)
    k = int(campaign.outputs_per_task)
    _check_arguments(tasks_per_item=tasks_per_item, seed=seed)
    chosen = _chosen_criteria(campaign, criteria)
    together = is_together(campaign)
    if together and len(chosen) != campaign.criteria.count():
        raise DomainError(
            f"Campaign '{campaign.slug}' shows all criteria of an item on one page "
            "(set-up 1): build the tasks of all its criteria together."
        )
    systems, items = _systems_and_items(campaign)
    deleted = _existing_tasks_delete(campaign=campaign, chosen=chosen, rebuild=rebuild)
    if seed is None:
        seed = _seed_for(campaign=campaign, chosen=chosen)
    grid = _output_grid(campaign=campaign, chosen=chosen, systems=systems, items=items)

    shared = (
        design_tasks(
            grid.available,
            k=k,
            rng=np.random.default_rng(_criterion_seed(seed, TOGETHER_STREAM)),
            tasks_per_item=tasks_per_item,
        )
        if together
        else None
    )
    reports = []
    steps = 2 * len(chosen)
    if progress is not None:
        progress(0, steps)
    for step, criterion in enumerate(chosen):
        design = (
            shared
            if shared is not None
            else design_tasks(
                grid.available,
                k=k,
                rng=np.random.default_rng(_criterion_seed(seed, criterion.name)),
                tasks_per_item=tasks_per_item,
            )
        )
        if progress is not None:
            progress(2 * step + 1, steps)
        reports.append(
            _design_write(
                campaign=campaign,
                criterion=criterion,
                design=design,
                grid=grid,
                together=together,
                systems=systems,
            )
        )
        if progress is not None:
            progress(2 * step + 2, steps)

    campaign.task_seed = seed
    campaign.save(update_fields=["task_seed", "updated_at"])
    return DesignReport(
        campaign=campaign.slug,
        seed=seed,
        k=min(k, len(systems)),
        tasks_per_item=tasks_per_item or default_tasks_per_item(len(systems), k),
        deleted_tasks=deleted,
        criteria=tuple(reports),
        standards_left_out=tuple(
            criteria_selectors.standard_outputs_named(campaign=campaign, criteria=chosen)
        ),
    )


def _check_arguments(*, tasks_per_item: int | None, seed: int | None) -> None:
    if tasks_per_item is not None and tasks_per_item < 1:
        raise DomainError("Tasks per item must be at least 1.", field="tasks_per_item")
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise DomainError(f"The seed must be between 0 and {SEED_LIMIT - 1}.", field="seed")


def _systems_and_items(campaign: Campaign) -> tuple[list[tuple[int, str]], list[int]]:
    """The campaign's systems (id, label) and item ids, refused when there is nothing to
    compare."""
    systems = list(campaign.systems.order_by("label").values_list("id", "label"))
    if len(systems) < 2:
        raise DomainError(
            f"Campaign '{campaign.slug}' has {len(systems)} system(s): a task compares the "
            "outputs of at least two systems. Add outputs of another system first."
        )
    items = list(campaign.items.order_by("position", "id").values_list("id", flat=True))
    if not items:
        raise DomainError(f"Campaign '{campaign.slug}' has no items: upload outputs first.")
    return systems, items


def _existing_tasks_delete(*, campaign: Campaign, chosen: list[Criterion], rebuild: bool) -> int:
    """Delete the chosen criteria's design tasks when rebuilding; how many went. Refused
    without ``rebuild`` and when any of them was handed out."""
    existing = Task.objects.filter(campaign=campaign, criterion__in=chosen, kind__in=DESIGN_KINDS)
    if not existing.exists():
        return 0
    names = ", ".join(sorted(set(existing.values_list("criterion__name", flat=True).distinct())))
    if not rebuild:
        raise DomainError(
            f"Campaign '{campaign.slug}' already has tasks for {names}; "
            "rebuild them explicitly (--rebuild) to replace them."
        )
    held = Assignment.objects.filter(task__in=existing).count()
    if held:
        raise DomainError(
            f"Cannot rebuild the tasks of {names}: {held} assignment(s) were handed out "
            "on them already."
        )
    deleted = existing.count()
    existing.delete()
    return deleted


def _seed_for(*, campaign: Campaign, chosen: list[Criterion]) -> int:
    """The stored seed when other criteria have tasks (one seed describes the
    campaign), else a fresh one."""
    others = (
        Task.objects.filter(campaign=campaign, kind__in=DESIGN_KINDS)
        .exclude(criterion__in=chosen)
        .exists()
    )
    if others:
        return int(campaign.task_seed)
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0]) % SEED_LIMIT


@dataclass(frozen=True)
class _OutputGrid:
    """The design's input: ``rows`` (item id, language) by systems; ``output_id[i, s]``
    (-1: none) and ``group_id[i, s]`` (outputs sharing a text share one)."""

    rows: list[tuple[int, str]]
    output_id: np.ndarray
    group_id: np.ndarray

    @property
    def available(self) -> np.ndarray:
        return self.output_id >= 0


def _output_grid(
    *,
    campaign: Campaign,
    chosen: list[Criterion],
    systems: list[tuple[int, str]],
    items: list[int],
) -> _OutputGrid:
    outputs = list(
        Output.objects.filter(item__campaign=campaign)
        .exclude(criteria_selectors.standard_outputs_left_out(criteria=chosen))
        .values_list("id", "item_id", "system_id", "canonical_id", "language")
    )
    # Tasks never mix languages: the design's rows are (item, language) pairs, one per
    # language an item's outputs are in (a monolingual campaign's rows are its items, in
    # the same order, so its design is what it always was).
    order = {tag: n for n, tag in enumerate(campaign.languages or [])}
    languages_of: dict[int, set[str]] = {}
    for _, item_id, _, _, language in outputs:
        languages_of.setdefault(item_id, set()).add(language)
    rows = [
        (item_id, language)
        for item_id in items
        for language in sorted(
            languages_of.get(item_id, {""}), key=lambda tag: (order.get(tag, len(order)), tag)
        )
    ]
    row_index = {row: n for n, row in enumerate(rows)}
    system_index = {pk: i for i, (pk, _) in enumerate(systems)}
    output_id = np.full((len(rows), len(systems)), -1, dtype=np.int64)
    group_id = np.full((len(rows), len(systems)), -1, dtype=np.int64)
    merge = campaign.merge_identical_outputs
    for pk, item_id, system_id, canonical_id, language in outputs:
        i, s = row_index[item_id, language], system_index[system_id]
        output_id[i, s] = pk
        group_id[i, s] = canonical_id if merge and canonical_id else pk
    return _OutputGrid(rows=rows, output_id=output_id, group_id=group_id)


def _slotted(*, task: Task, shown: Sequence[tuple[int, int]], into: list[TaskOutput]) -> int:
    """Add the task's outputs to ``into``, each at its group's display slot: ``shown`` is
    (output id, group) in display order, and outputs of one group (identical texts
    merged) share a slot. Returns how many outputs shared an earlier one's slot."""
    slots: dict[int, int] = {}
    merged = 0
    for output_id, group in shown:
        if group in slots:
            merged += 1
        slot = slots.setdefault(group, len(slots))
        into.append(TaskOutput(task_id=task.pk, output_id=output_id, slot=slot))
    return merged


def _design_write(
    *,
    campaign: Campaign,
    criterion: Criterion,
    design: Design,
    grid: _OutputGrid,
    together: bool,
    systems: list[tuple[int, str]],
) -> CriterionDesign:
    """Write one criterion's tasks and their output slots from ``design``."""
    default_language = campaign.default_language
    tasks = [
        Task(
            campaign=campaign,
            criterion=criterion,
            item_id=grid.rows[int(i)][0],
            language=grid.rows[int(i)][1] or default_language,
            kind=Task.Kind.REGULAR,
            number=n + 1,
            # Set-up 1: the n-th designed task of every criterion is one page.
            group=n + 1 if together else None,
        )
        for n, i in enumerate(design.task_item)
    ]
    Task.objects.bulk_create(tasks, batch_size=BATCH_SIZE)
    analyze_when_grown(model=Task, rows=len(tasks))
    task_outputs: list[TaskOutput] = []
    merged = 0
    for task, row, i in zip(tasks, design.tasks, design.task_item, strict=True):
        shown = [(int(grid.output_id[i, s]), int(grid.group_id[i, s])) for s in row[row >= 0]]
        merged += _slotted(task=task, shown=shown, into=task_outputs)
    TaskOutput.objects.bulk_create(task_outputs, batch_size=BATCH_SIZE)
    analyze_when_grown(model=TaskOutput, rows=len(task_outputs))
    balance = balance_of(design)
    return CriterionDesign(
        criterion=criterion.name,
        tasks=len(tasks),
        task_outputs=len(task_outputs),
        merged_outputs=merged,
        skipped_items=int(design.skipped_items.size),
        systems=tuple(label for _, label in systems),
        counts=tuple(int(c) for c in balance.counts),
        pairs=tuple(tuple(int(p) for p in row) for row in balance.pairs),
        count_min=balance.count_min,
        count_max=balance.count_max,
        pair_min=balance.pair_min,
        pair_max=balance.pair_max,
        pair_mean=balance.pair_mean,
        pair_std=balance.pair_std,
    )


@dataclass(frozen=True)
class TaskRow:
    """A task to add: its item, its language, and the outputs it shows in display order,
    each as (output id, group); outputs of one group share a slot (identical texts
    merged, as ``Output.canonical`` says when the campaign merges them)."""

    item_id: int
    language: str
    outputs: Sequence[tuple[int, int]]


@transaction.atomic
def tasks_add(*, campaign: Campaign, criterion: Criterion, rows: Sequence[TaskRow]) -> int:
    """Add regular tasks of the criterion to a campaign's built ones (adaptive design's
    batches): numbered on from the campaign's highest task number, in the order of
    ``rows``, each output at its group's slot as :func:`tasks_build` places them, no
    place held yet. Returns the first new task's number (the highest before plus one,
    also when ``rows`` is empty). Locks the campaign row, so that two additions never
    take the same numbers."""
    row_lock(Campaign, campaign.pk)
    last = Task.objects.filter(campaign=campaign).aggregate(n=Max("number"))["n"]
    first = int(last or 0) + 1
    tasks = [
        Task(
            campaign=campaign,
            criterion=criterion,
            item_id=row.item_id,
            language=row.language,
            kind=Task.Kind.REGULAR,
            number=first + n,
        )
        for n, row in enumerate(rows)
    ]
    Task.objects.bulk_create(tasks, batch_size=BATCH_SIZE)
    analyze_when_grown(model=Task, rows=len(tasks))
    task_outputs: list[TaskOutput] = []
    for task, row in zip(tasks, rows, strict=True):
        _slotted(task=task, shown=row.outputs, into=task_outputs)
    TaskOutput.objects.bulk_create(task_outputs, batch_size=BATCH_SIZE)
    analyze_when_grown(model=TaskOutput, rows=len(task_outputs))
    return first


@transaction.atomic
def campaign_tasks_build(
    *,
    campaign: Campaign,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    design: str | None = None,
) -> DesignReport:
    """Build (or, in a draft, rebuild) the tasks of every criterion: the designer's
    "Build tasks" on the pages and the API. Needs criteria, outputs and settings that
    pass ``campaign_settings_check``. Locks the campaign's row, so that builds sent at
    once run one after the other; with ``design`` (:func:`campaign_design_token` as the
    requester saw it), refuses (``StaleRequest``) when the tasks were built since."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    campaign_tasks_build_check(campaign=campaign)
    campaign_design_refuse_stale(campaign=campaign, design=design)
    # A draft's tasks may be rebuilt (tasks_build refuses when assignments exist).
    return tasks_build(
        campaign=campaign, seed=seed, rebuild=campaign.tasks.exists(), progress=progress
    )


def campaign_design_refuse_stale(*, campaign: Campaign, design: str | None) -> None:
    """``StaleRequest`` when ``design`` (as the requester saw it) is no longer the
    campaign's (:func:`campaign_design_token`); nothing when it is, or is None."""
    current = campaign_design_token(campaign=campaign)
    if design is None or design == current:
        return
    if current == "none":
        raise StaleRequest(
            "Nothing was built: the tasks this page showed were deleted meanwhile. Reload "
            "the campaign's page, then build.",
            field="design",
        )
    raise StaleRequest(
        f"Nothing was rebuilt: the tasks were built meanwhile (seed {current}), by this "
        "request sent twice or from another tab. The campaign's page shows them; press "
        "Rebuild tasks again only to replace them.",
        field="design",
    )


def campaign_tasks_build_check(*, campaign: Campaign) -> None:
    """The refusals of :func:`campaign_tasks_build` that need no design, made before a
    background build is queued so that the page says them at once."""
    _refuse_unless_draft(campaign)
    missing = campaign_build_blockers(campaign=campaign)
    if "criteria" in missing:
        raise DomainError("Add at least one criterion before building tasks.")
    if "systems" in missing:
        raise DomainError("Upload system outputs before building tasks.")
    campaign_settings_check(campaign=campaign)
    if "standards" in missing:
        _refuse_without_standard(campaign)


def campaign_tasks_estimate(*, campaign: Campaign) -> int:
    """About how many tasks building makes (items x criteria x ceil(systems / k)): what
    decides whether the pages build during the request or as a background job."""
    n_systems = campaign.systems.count()
    k = max(min(int(campaign.outputs_per_task), n_systems), 1)
    return campaign.items.count() * campaign.criteria.count() * -(-n_systems // k)


@dataclass(frozen=True)
class DesignPreset:
    """A study design in one choice: the set-up, outputs per task and the criteria."""

    label: str
    setup: str
    outputs_per_task: int
    criteria: tuple[str, ...]


# The set-ups of the RankME study (Novikova, Dusek and Rieser 2018). PlainME is plain
# magnitude estimation: one output per task, scored against the criterion's standard; it
# gives no within-task comparison, so comparison-based rankings learn nothing from it.
DESIGN_PRESETS: dict[str, DesignPreset] = {
    "rankme-together": DesignPreset(
        "RankME set-up 1: quality, naturalness and informativeness of 5 outputs on one page",
        Campaign.Setup.TOGETHER,
        5,
        ("quality", "naturalness", "informativeness"),
    ),
    "rankme-separate": DesignPreset(
        "RankME set-up 2: one criterion per task, 5 outputs each",
        Campaign.Setup.SEPARATE,
        5,
        ("quality", "naturalness", "informativeness"),
    ),
    "plainme": DesignPreset(
        "PlainME: one output per task, scored against the standard (magnitude estimation)",
        Campaign.Setup.SEPARATE,
        1,
        ("quality",),
    ),
}


@transaction.atomic
def campaign_design_preset_apply(*, campaign: Campaign, preset: str) -> Campaign:
    """Set the campaign's set-up and outputs per task from a design preset and add the
    preset's criteria it lacks (from the criterion presets of the same names).

    The settings go through ``campaign_settings_update``, so a campaign whose tasks are
    built refuses the change; criteria the campaign has already are left as they are.
    """
    if preset not in DESIGN_PRESETS:
        raise DomainError(
            f"Unknown design preset '{preset}'; choose one of {', '.join(DESIGN_PRESETS)}.",
            field="preset",
        )
    chosen = DESIGN_PRESETS[preset]
    campaign = campaign_settings_update(
        campaign=campaign, setup=chosen.setup, outputs_per_task=chosen.outputs_per_task
    )
    have = set(campaign.criteria.values_list("name", flat=True))
    for name in chosen.criteria:
        if name not in have:
            criterion = criterion_from_preset(campaign=campaign, preset=name)
            if chosen.setup == Campaign.Setup.TOGETHER and not criterion.show_input:
                # RankME's set-up 1 page shows the input to all its criteria (set-up 2
                # is the one that judges naturalness without it): said, not hidden.
                criterion.show_input = True
                criterion.save(update_fields=["show_input"])
    return campaign
