"""The shared writer of finished judgements (rating importers, WMT, the demo campaigns).

A service: the importers (``annotations.importing``) call it from above, and so do the
demo campaigns beside it."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from django.db import transaction
from django.db.models import Max

from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Judgement,
    JudgementScore,
    Output,
    Task,
    TaskOutput,
    Worker,
)
from annotations.services.bulk import BATCH_SIZE, analyze_when_grown, bulk_insert
from common.errors import DomainError


def _competition_ranks(scores: Sequence[float]) -> list[float]:
    """Rank 1 for the highest score, ties sharing the best rank of their group: the
    rule of ``annotations.core.scoring.ranks_from_scores`` (tested equal), in plain Python,
    which for a judgement's handful of scores is far cheaper than the array version."""
    return [1.0 + sum(other > score for other in scores) for score in scores]


# --------------------------------------------------------------------------------------
# The shared writer of finished judgements


class FinishedScore(NamedTuple):
    """A score one output received, in the judgement's slot order.

    ``rank`` is taken as given when set (e.g. WMT ranks), else derived from the
    judgement's scores with ``ranks_from_scores``. ``text`` is the text the worker saw
    when it differs from the output's own text ("" = the output's text). A named tuple
    (immutable, and made several times faster than a frozen dataclass: a large WMT
    file makes half a million of them).
    """

    system: str
    score: float
    rank: float | None = None
    coverage: str = ""
    text: str = ""
    checks: tuple[str, ...] = ()  # content checks ticked (``JudgementScore.checks``)


@dataclass(frozen=True)
class FinishedJudgement:
    """A judgement made outside this platform (or generated), ready to store.

    ``item_id`` is the item's external id and ``worker_id`` the worker's external id.
    Judgements with the same non-blank ``task_external_id`` share one task (the first
    of them defines its outputs and slots); a blank one gets a task of its own.
    ``worker_metadata`` is merged into the worker's metadata (later judgements win).
    """

    item_id: str
    worker_id: str
    scores: tuple[FinishedScore, ...]
    started_at: datetime
    submitted_at: datetime
    task_external_id: str = ""
    worker_metadata: Mapping[str, Any] = field(default_factory=dict)
    metadata: Mapping[str, Any] = field(default_factory=dict)


def judgements_refuse_if_archived(campaign: Campaign) -> None:
    """An archived campaign is read-only: no judgements are imported into it (its status
    read afresh, as another request may have archived it since ``campaign`` was read)."""
    status = Campaign.objects.filter(pk=campaign.pk).values_list("status", flat=True).first()
    if status == Campaign.Status.ARCHIVED:
        raise DomainError(
            f"Campaign '{campaign.slug}' is archived, so it is read-only: nothing was "
            "imported. Restore it first (it becomes closed) to add judgements."
        )


def _outputs_shown(
    campaign: Campaign, judgements: Sequence[FinishedJudgement], items: Mapping[str, int]
) -> tuple[list[list[tuple[int, str]]], dict[int, str]]:
    """Per judgement, the (output id, stored text) of each slot, looked up once; and the
    language of every output of the campaign. A judgement of an unknown item, without
    scores, ending before it starts or scoring a system without an output for its item
    is an error."""
    outputs: dict[tuple[str, str], tuple[int, str]] = {}
    language_of_output: dict[int, str] = {}
    for pk, item_ext, label, text, language in Output.objects.filter(
        item__campaign=campaign
    ).values_list("id", "item__external_id", "system__label", "text", "language"):
        outputs[item_ext, label] = (pk, text)
        language_of_output[pk] = language
    shown: list[list[tuple[int, str]]] = []
    for j in judgements:
        if j.item_id not in items:
            raise DomainError(f"Campaign '{campaign.slug}' has no item '{j.item_id}'.")
        if len(j.scores) < 1:
            raise DomainError(f"A judgement of item '{j.item_id}' has no scores.")
        if j.submitted_at < j.started_at:
            raise DomainError(f"A judgement of item '{j.item_id}' ends before it starts.")
        item_ext = j.item_id
        try:
            shown.append([outputs[item_ext, s.system] for s in j.scores])
        except KeyError:
            system = next(s.system for s in j.scores if (item_ext, s.system) not in outputs)
            raise DomainError(f"System '{system}' has no output for item '{item_ext}'.") from None
    return shown, language_of_output


def _workers_store(
    campaign: Campaign,
    judgements: Sequence[FinishedJudgement],
    *,
    platform: str,
    experts: bool,
) -> dict[str, int]:
    """The judges' workers by external id (their ids): one per external id, created when
    missing, metadata merged in time order, marked experts when ``experts``."""
    workers = {w.external_id: w for w in campaign.workers.filter(platform=platform)}
    metadata: dict[str, dict[str, Any]] = {}
    for j in sorted(judgements, key=lambda j: j.submitted_at):
        metadata.setdefault(j.worker_id, {}).update(j.worker_metadata)
    new_workers = [
        Worker(campaign=campaign, platform=platform, external_id=ext, metadata=meta, expert=experts)
        for ext, meta in metadata.items()
        if ext not in workers
    ]
    Worker.objects.bulk_create(new_workers, batch_size=BATCH_SIZE)
    analyze_when_grown(model=Worker, rows=len(new_workers))
    changed: list[Worker] = []
    for ext, meta in metadata.items():
        worker = workers.get(ext)
        if worker is None:
            continue
        if (meta and {**worker.metadata, **meta} != worker.metadata) or (
            experts and not worker.expert
        ):
            worker.metadata = {**worker.metadata, **meta}
            worker.expert = worker.expert or experts
            changed.append(worker)
    Worker.objects.bulk_update(changed, ["metadata", "expert"], batch_size=BATCH_SIZE)
    workers.update({w.external_id: w for w in new_workers})
    return {ext: w.pk for ext, w in workers.items()}


@dataclass
class _TaskPlan:
    """The tasks a set of finished judgements needs, as rows to insert, and which task
    (and which of its slots) each judgement is of."""

    rows: list[tuple[Any, ...]] = field(default_factory=list)
    item_of_task: list[int] = field(default_factory=list)  # per new task: its item's id
    # Per task: (system, text) -> slot, and its slots as (output, slot, text).
    slot_of_task: list[dict[tuple[str, str], int]] = field(default_factory=list)
    slots_of_task: list[list[tuple[int, int, str]]] = field(default_factory=list)
    task_for_judgement: list[int] = field(default_factory=list)
    # Per judgement, the task slot of each of its scores (None: in the task's own order).
    slots_for_judgement: list[tuple[int, ...] | None] = field(default_factory=list)


def _task_keys_refuse_known(
    campaign: Campaign, criterion: Criterion, judgements: Sequence[FinishedJudgement]
) -> None:
    """A task external id the criterion already has means the judgements were imported
    before: an error, nothing written."""
    keys = sorted({j.task_external_id for j in judgements if j.task_external_id})
    clash = list(
        Task.objects.filter(criterion=criterion, external_id__in=keys).values_list(
            "external_id", flat=True
        )[:3]
    )
    if clash:
        raise DomainError(
            f"Criterion '{criterion.name}' of campaign '{campaign.slug}' already has tasks "
            f"{', '.join(clash)}: these judgements were imported before; nothing was written."
        )


def _seen(j: FinishedJudgement, slot_outputs: list[tuple[int, str]]) -> tuple[tuple[str, str], ...]:
    """What the judge saw in each slot: the system and the text when not the output's;
    a system shown twice is an error."""
    seen = tuple(
        (s.system, s.text if s.text and s.text != text else "")
        for s, (_, text) in zip(j.scores, slot_outputs, strict=True)
    )
    if len(set(seen)) < len(seen):
        raise DomainError(
            f"A judgement of item '{j.item_id}' shows system "
            f"'{next(x for x in seen if seen.count(x) > 1)[0]}' twice."
        )
    return seen


def _tasks_plan(
    campaign: Campaign,
    criterion: Criterion,
    judgements: Sequence[FinishedJudgement],
    shown: list[list[tuple[int, str]]],
    items: Mapping[str, int],
    language_of_output: Mapping[int, str],
) -> _TaskPlan:
    """Tasks: one per task key, slots from the first judgement of the key. Judgements
    without a key share a task when they show the same outputs (same texts) of the same
    item, in whatever order: several judges of one segment then form one task, so
    redundancy and agreement work on imported data as on collected data."""
    _task_keys_refuse_known(campaign, criterion, judgements)
    number = (campaign.tasks.aggregate(n=Max("number"))["n"] or 0) + 1
    plan = _TaskPlan()
    task_of: dict[Hashable, int] = {}  # task key -> index into plan.rows
    task_kind = Task.Kind.IMPORTED.value
    campaign_pk, criterion_pk = campaign.pk, criterion.pk
    for j, slot_outputs in zip(judgements, shown, strict=True):
        seen = _seen(j, slot_outputs)
        key: Hashable = j.task_external_id or (j.item_id, frozenset(seen))
        index = task_of.get(key)
        if index is None:
            index = len(plan.rows)
            task_of[key] = index
            item_id = items[j.item_id]
            languages = {language_of_output[output_id] for output_id, _ in slot_outputs}
            if len(languages) > 1:
                raise DomainError(
                    f"A judgement of item '{j.item_id}' shows outputs in several languages "
                    f"({', '.join(sorted(languages))}): a task never mixes languages."
                )
            plan.rows.append(
                (
                    campaign_pk,
                    criterion_pk,
                    item_id,
                    task_kind,
                    number,
                    j.task_external_id,
                    languages.pop(),
                )
            )
            plan.item_of_task.append(item_id)
            number += 1
            plan.slot_of_task.append({x: slot for slot, x in enumerate(seen)})
            plan.slots_of_task.append(
                [
                    (output_id, slot, text)
                    for slot, ((output_id, _), (_, text)) in enumerate(
                        zip(slot_outputs, seen, strict=True)
                    )
                ]
            )
            plan.slots_for_judgement.append(None)
        else:
            slot_of = plan.slot_of_task[index]
            if len(seen) != len(slot_of) or any(x not in slot_of for x in seen):
                raise DomainError(
                    f"Task '{j.task_external_id}' shows different systems in different judgements."
                )
            moved = tuple(slot_of[x] for x in seen)
            plan.slots_for_judgement.append(None if moved == tuple(range(len(moved))) else moved)
        plan.task_for_judgement.append(index)
    return plan


def _progress_counter(
    progress: Callable[[int, int], None] | None, total: int
) -> Callable[[int], None]:
    """``advance(n)``: ``n`` more rows written, reported to ``progress`` (when given)."""
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    return advance


def _assignments_insert(
    judgements: Sequence[FinishedJudgement],
    plan: _TaskPlan,
    task_ids: Sequence[int],
    worker_pk: Mapping[str, int],
    criterion_pk: int,
    advance: Callable[[int], None],
) -> list[int]:
    """One submitted ``imported`` assignment per judgement; their ids."""
    # One display order list per distinct order (adapted once): identity per k, or as seen.
    orders: dict[int | tuple[int, ...], list[int]] = {}

    def order_of(slots: tuple[int, ...] | None, k: int) -> list[int]:
        key = slots or k
        order = orders.get(key)
        if order is None:
            order = orders[key] = list(slots or range(k))
        return order

    imported, submitted = Assignment.Kind.IMPORTED.value, Assignment.State.SUBMITTED.value
    return bulk_insert(
        model=Assignment,
        fields=(
            "worker",
            "task",
            "item",
            "criterion",
            "kind",
            "state",
            "display_order",
            "started_at",
            "submitted_at",
        ),
        rows=[
            (
                worker_pk[j.worker_id],
                task_ids[index],
                plan.item_of_task[index],
                criterion_pk,
                imported,
                submitted,
                order_of(slots, len(j.scores)),
                j.started_at,
                j.submitted_at,
            )
            for j, index, slots in zip(
                judgements, plan.task_for_judgement, plan.slots_for_judgement, strict=True
            )
        ],
        progress=advance,
    )


def _judgements_insert(
    campaign: Campaign,
    judgements: Sequence[FinishedJudgement],
    plan: _TaskPlan,
    task_ids: Sequence[int],
    assignment_ids: Sequence[int],
    worker_pk: Mapping[str, int],
    criterion_pk: int,
    advance: Callable[[int], None],
) -> list[int]:
    """One judgement per assignment (too fast below the campaign's minimum time); their
    ids."""
    min_seconds = campaign.min_seconds_per_task
    judgement_rows = []
    for j, index, assignment_id in zip(
        judgements, plan.task_for_judgement, assignment_ids, strict=True
    ):
        seconds = (j.submitted_at - j.started_at).total_seconds()
        judgement_rows.append(
            (
                assignment_id,
                task_ids[index],
                worker_pk[j.worker_id],
                criterion_pk,
                j.started_at,
                j.submitted_at,
                seconds,
                bool(min_seconds) and seconds < min_seconds,
                dict(j.metadata),
            )
        )
    return bulk_insert(
        model=Judgement,
        fields=(
            "assignment",
            "task",
            "worker",
            "criterion",
            "started_at",
            "submitted_at",
            "seconds_on_task",
            "too_fast",
            "metadata",
        ),
        rows=judgement_rows,
        progress=advance,
    )


def _scores_insert(
    judgements: Sequence[FinishedJudgement],
    judgement_ids: Sequence[int],
    shown: list[list[tuple[int, str]]],
    plan: _TaskPlan,
    advance: Callable[[int], None],
) -> None:
    """A score per slot of each judgement, stored by task slot; ranks as given, else
    derived from the judgement's scores."""
    # Content checks only when some score has them: a large WMT file writes no column more.
    with_checks = any(s.checks for j in judgements for s in j.scores)
    score_rows: list[tuple[Any, ...]] = []
    append = score_rows.append
    for j, judgement_id, slot_outputs, slots in zip(
        judgements, judgement_ids, shown, plan.slots_for_judgement, strict=True
    ):
        scores = j.scores
        # Scores are stored by task slot; the order this judge saw is the display order.
        at: Sequence[int] = range(len(scores)) if slots is None else slots
        if all(s.rank is not None for s in scores):
            for slot, s, (output_id, _) in zip(at, scores, slot_outputs, strict=True):
                row = (judgement_id, output_id, slot, s.score, s.rank, s.coverage)
                append((*row, list(s.checks)) if with_checks else row)
        else:
            derived = _competition_ranks([s.score for s in scores])
            for slot, s, (output_id, _), rank in zip(
                at, scores, slot_outputs, derived, strict=True
            ):
                row = (
                    judgement_id,
                    output_id,
                    slot,
                    s.score,
                    s.rank if s.rank is not None else rank,
                    s.coverage,
                )
                append((*row, list(s.checks)) if with_checks else row)
    bulk_insert(
        model=JudgementScore,
        fields=("judgement", "output", "slot", "score", "rank", "coverage")
        + (("checks",) if with_checks else ()),
        rows=score_rows,
        progress=advance,
        ids=False,
    )


@transaction.atomic
def judgements_store_finished(
    *,
    campaign: Campaign,
    criterion: Criterion,
    judgements: Sequence[FinishedJudgement],
    platform: str = Worker.Platform.IMPORTED,
    progress: Callable[[int, int], None] | None = None,
    experts: bool = False,
) -> int:
    """Store finished judgements with their tasks, workers and assignments, in bulk.

    Creates, per task key, a ``Task`` (kind ``imported``) and its ``TaskOutput`` slots;
    the workers (``platform``, created when missing); per judgement an ``Assignment``
    (kind ``imported``, state ``submitted``), a ``Judgement`` and a ``JudgementScore``
    per slot. The items and outputs must exist (matched by item external id and system
    label). A task external id the criterion already has is an error, so the same
    judgements cannot be stored twice. Returns the number of judgements stored.
    ``experts``: the judges are experts (``Worker.expert``), the reference the crowd is
    compared with; workers who are already known are marked too.
    A fixed number of queries per chunk of rows (raw bulk inserts, no model instances);
    ``progress(rows written, rows to write)`` is called after each chunk.
    """
    if criterion.campaign_id != campaign.pk:
        raise DomainError(f"Criterion '{criterion.name}' is not a criterion of '{campaign.slug}'.")
    judgements_refuse_if_archived(campaign)
    if not judgements:
        return 0
    items = dict(campaign.items.values_list("external_id", "id"))
    shown, language_of_output = _outputs_shown(campaign, judgements, items)
    worker_pk = _workers_store(campaign, judgements, platform=platform, experts=experts)
    plan = _tasks_plan(campaign, criterion, judgements, shown, items, language_of_output)

    # Progress counts rows written: tasks, slots, assignments, judgements and scores.
    n_scores = sum(len(j.scores) for j in judgements)
    total = len(plan.rows) + sum(map(len, plan.slots_of_task)) + 2 * len(judgements) + n_scores
    advance = _progress_counter(progress, total)
    task_ids = bulk_insert(
        model=Task,
        fields=("campaign", "criterion", "item", "kind", "number", "external_id", "language"),
        rows=plan.rows,
        progress=advance,
    )
    bulk_insert(
        model=TaskOutput,
        fields=("task", "output", "slot", "text"),
        rows=[
            (task_id, output_id, slot, text)
            for task_id, slots in zip(task_ids, plan.slots_of_task, strict=True)
            for output_id, slot, text in slots
        ],
        progress=advance,
        ids=False,
    )
    assignment_ids = _assignments_insert(
        judgements, plan, task_ids, worker_pk, criterion.pk, advance
    )
    judgement_ids = _judgements_insert(
        campaign, judgements, plan, task_ids, assignment_ids, worker_pk, criterion.pk, advance
    )
    _scores_insert(judgements, judgement_ids, shown, plan, advance)
    return len(judgements)
