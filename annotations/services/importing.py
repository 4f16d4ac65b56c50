"""Imports: outputs, finished judgements (E2E RankME exports, WMT rankings), whole E2E.

Every public service parses its files completely (``annotations.importers``) and then
writes in one ``transaction.atomic``: on any error nothing is written and the error
(``ImportFileError``) names the file, the line and the field. Writes are bulk inserts
in batches with a fixed number of queries, whatever the number of rows.

``judgements_store_finished`` is the shared bulk writer of finished judgements (used by
the rating importers and the demo campaign generator).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from annotations.errors import DomainError, ImportFileError
from annotations.importers.common import ParsedOutputs, collapse_whitespace
from annotations.importers.e2e_outputs import (
    PARTICIPANTS_FILE,
    parse_e2e_outputs,
    parse_participants,
    participant_for,
)
from annotations.importers.e2e_ratings import ParsedRatings, parse_e2e_ratings
from annotations.importers.generic_csv import parse_outputs_csv
from annotations.importers.generic_jsonl import parse_outputs_jsonl
from annotations.importers.wmt import ParsedWMT, parse_wmt_csv
from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Item,
    Judgement,
    JudgementScore,
    Output,
    System,
    Task,
    TaskOutput,
    Worker,
)
from annotations.scoring import ranks_from_scores
from annotations.services.campaigns import (
    CRITERION_PRESETS,
    OutputRow,
    campaign_get_or_create,
    criterion_from_preset,
    outputs_store,
)

BATCH_SIZE = 2000
E2E_RATING_FILES = {"quality": "quality.csv", "naturalness": "naturalness.csv"}


# --------------------------------------------------------------------------------------
# The shared writer of finished judgements


@dataclass(frozen=True)
class FinishedScore:
    """A score one output received, in the judgement's slot order.

    ``rank`` is taken as given when set (e.g. WMT ranks), else derived from the
    judgement's scores with ``ranks_from_scores``. ``text`` is the text the worker saw
    when it differs from the output's own text ("" = the output's text).
    """

    system: str
    score: float
    rank: float | None = None
    coverage: str = ""
    text: str = ""


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


@transaction.atomic
def judgements_store_finished(
    *,
    campaign: Campaign,
    criterion: Criterion,
    judgements: Sequence[FinishedJudgement],
    platform: str = Worker.Platform.IMPORTED,
) -> int:
    """Store finished judgements with their tasks, workers and assignments, in bulk.

    Creates, per task key, a ``Task`` (kind ``imported``) and its ``TaskOutput`` slots;
    the workers (``platform``, created when missing); per judgement an ``Assignment``
    (kind ``imported``, state ``submitted``), a ``Judgement`` and a ``JudgementScore``
    per slot. The items and outputs must exist (matched by item external id and system
    label). A task external id the criterion already has is an error, so the same
    judgements cannot be stored twice. Returns the number of judgements stored.
    A fixed number of queries, in batches of ``BATCH_SIZE`` rows.
    """
    if criterion.campaign_id != campaign.pk:
        raise DomainError(f"Criterion '{criterion.name}' is not a criterion of '{campaign.slug}'.")
    if not judgements:
        return 0
    items = dict(campaign.items.values_list("external_id", "id"))
    outputs: dict[tuple[str, str], tuple[int, str]] = {
        (item_ext, label): (pk, text)
        for pk, item_ext, label, text in Output.objects.filter(item__campaign=campaign).values_list(
            "id", "item__external_id", "system__label", "text"
        )
    }
    for j in judgements:
        if j.item_id not in items:
            raise DomainError(f"Campaign '{campaign.slug}' has no item '{j.item_id}'.")
        if len(j.scores) < 1:
            raise DomainError(f"A judgement of item '{j.item_id}' has no scores.")
        if j.submitted_at < j.started_at:
            raise DomainError(f"A judgement of item '{j.item_id}' ends before it starts.")
        for s in j.scores:
            if (j.item_id, s.system) not in outputs:
                raise DomainError(f"System '{s.system}' has no output for item '{j.item_id}'.")

    # Workers: one per external id, metadata merged in time order.
    workers = {w.external_id: w for w in campaign.workers.filter(platform=platform)}
    metadata: dict[str, dict[str, Any]] = {}
    for j in sorted(judgements, key=lambda j: j.submitted_at):
        metadata.setdefault(j.worker_id, {}).update(j.worker_metadata)
    new_workers = [
        Worker(campaign=campaign, platform=platform, external_id=ext, metadata=meta)
        for ext, meta in metadata.items()
        if ext not in workers
    ]
    Worker.objects.bulk_create(new_workers, batch_size=BATCH_SIZE)
    changed: list[Worker] = []
    for ext, meta in metadata.items():
        worker = workers.get(ext)
        if worker is not None and meta and {**worker.metadata, **meta} != worker.metadata:
            worker.metadata = {**worker.metadata, **meta}
            changed.append(worker)
    Worker.objects.bulk_update(changed, ["metadata"], batch_size=BATCH_SIZE)
    workers.update({w.external_id: w for w in new_workers})

    # Tasks: one per task key, slots from the first judgement of the key.
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
    number = (campaign.tasks.aggregate(n=Max("number"))["n"] or 0) + 1
    task_of: dict[str, Task] = {}
    systems_of: dict[str, tuple[str, ...]] = {}
    task_for_judgement: list[Task] = []
    new_tasks: list[Task] = []
    task_outputs: list[TaskOutput] = []
    for j in judgements:
        task = task_of.get(j.task_external_id) if j.task_external_id else None
        if task is None:
            task = Task(
                campaign=campaign,
                criterion=criterion,
                item_id=items[j.item_id],
                kind=Task.Kind.IMPORTED,
                number=number,
                external_id=j.task_external_id,
            )
            number += 1
            new_tasks.append(task)
            if j.task_external_id:
                task_of[j.task_external_id] = task
                systems_of[j.task_external_id] = tuple(s.system for s in j.scores)
            for slot, s in enumerate(j.scores):
                output_id, text = outputs[(j.item_id, s.system)]
                task_outputs.append(
                    TaskOutput(
                        task=task,
                        output_id=output_id,
                        slot=slot,
                        text=s.text if s.text and s.text != text else "",
                    )
                )
        elif systems_of[j.task_external_id] != tuple(s.system for s in j.scores):
            raise DomainError(
                f"Task '{j.task_external_id}' shows different systems in different judgements."
            )
        task_for_judgement.append(task)
    Task.objects.bulk_create(new_tasks, batch_size=BATCH_SIZE)
    for to in task_outputs:
        to.task_id = to.task.pk
    TaskOutput.objects.bulk_create(task_outputs, batch_size=BATCH_SIZE)

    assignments = [
        Assignment(
            worker=workers[j.worker_id],
            task=task,
            item_id=task.item_id,
            criterion=criterion,
            kind=Assignment.Kind.IMPORTED,
            state=Assignment.State.SUBMITTED,
            display_order=list(range(len(j.scores))),
            started_at=j.started_at,
            submitted_at=j.submitted_at,
        )
        for j, task in zip(judgements, task_for_judgement, strict=True)
    ]
    Assignment.objects.bulk_create(assignments, batch_size=BATCH_SIZE)
    min_seconds = campaign.min_seconds_per_task
    stored = []
    for j, assignment in zip(judgements, assignments, strict=True):
        seconds = (j.submitted_at - j.started_at).total_seconds()
        stored.append(
            Judgement(
                assignment=assignment,
                task_id=assignment.task_id,
                worker_id=assignment.worker_id,
                criterion=criterion,
                started_at=j.started_at,
                submitted_at=j.submitted_at,
                seconds_on_task=seconds,
                too_fast=bool(min_seconds) and seconds < min_seconds,
                metadata=dict(j.metadata),
            )
        )
    Judgement.objects.bulk_create(stored, batch_size=BATCH_SIZE)
    scores: list[JudgementScore] = []
    for j, judgement in zip(judgements, stored, strict=True):
        derived = ranks_from_scores([s.score for s in j.scores])
        for slot, (s, rank) in enumerate(zip(j.scores, derived, strict=True)):
            scores.append(
                JudgementScore(
                    judgement=judgement,
                    output_id=outputs[(j.item_id, s.system)][0],
                    slot=slot,
                    score=s.score,
                    rank=rank if s.rank is None else s.rank,
                    coverage=s.coverage,
                )
            )
    JudgementScore.objects.bulk_create(scores, batch_size=BATCH_SIZE)
    return len(judgements)


# --------------------------------------------------------------------------------------
# Outputs


@dataclass(frozen=True)
class OutputsImported:
    file: str
    systems: int
    items: int
    outputs: int
    identical_groups: int
    systems_named: int = 0


def _parse_outputs(path: Path) -> ParsedOutputs:
    if path.is_dir():
        return parse_e2e_outputs(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return parse_outputs_csv(path)
    if suffix in (".jsonl", ".ndjson"):
        return parse_outputs_jsonl(path)
    if suffix == ".tsv":
        raise ImportFileError(
            "a single TSV file: give the folder of <system>.tsv files instead.", file=str(path)
        )
    raise ImportFileError(
        "unknown format: expected a .csv or .jsonl file or a folder of <system>.tsv files.",
        file=str(path),
    )


def _outputs_check_against(campaign: Campaign, parsed: ParsedOutputs) -> None:
    """Refuse outputs the campaign has already, and items whose input would change."""
    names = parsed.field_names
    inputs = dict(campaign.items.values_list("external_id", "input"))
    existing = set(
        Output.objects.filter(item__campaign=campaign).values_list(
            "item__external_id", "system__label"
        )
    )
    for row, (file, line) in zip(parsed.rows, parsed.where, strict=True):
        if (row.item_id, row.system) in existing:
            raise ImportFileError(
                f"campaign '{campaign.slug}' already has the output of system '{row.system}' "
                f"for item '{row.item_id}' (imported before?); nothing was written.",
                file=file,
                line=line,
                field=names["output"],
            )
        known = inputs.get(row.item_id)
        if known is not None and collapse_whitespace(known) != collapse_whitespace(row.input):
            raise ImportFileError(
                f"item '{row.item_id}' of campaign '{campaign.slug}' has a different input "
                f"('{known[:80]}').",
                file=file,
                line=line,
                field=names["input"],
            )


def _systems_name(campaign: Campaign, folder: Path) -> int:
    """Fill System.name and metadata from participants.tsv; returns systems named."""
    path = folder / PARTICIPANTS_FILE
    if not path.is_file():
        return 0
    participants = parse_participants(path)
    named: list[System] = []
    for system in campaign.systems.all():
        participant = participant_for(system.label, participants)
        if participant is None:
            continue
        system.name = participant.name
        system.metadata = {
            **system.metadata,
            "participant": participant.label,
            "affiliation": participant.affiliation,
        }
        named.append(system)
    System.objects.bulk_update(named, ["name", "metadata"], batch_size=BATCH_SIZE)
    return len(named)


@transaction.atomic
def outputs_import(*, campaign: Campaign, path: Path) -> OutputsImported:
    """Import outputs from a CSV, a JSONL file or a folder of E2E ``<system>.tsv`` files.

    The format is chosen by the extension (a folder is E2E-style; its
    ``participants.tsv`` names the systems). All or nothing.
    """
    path = Path(path)
    parsed = _parse_outputs(path)
    _outputs_check_against(campaign, parsed)
    stored = outputs_store(campaign=campaign, rows=parsed.rows)
    named = 0
    if path.is_dir():
        named = _systems_name(campaign, path)
    return OutputsImported(
        file=str(path),
        systems=stored.systems,
        items=stored.items,
        outputs=stored.outputs,
        identical_groups=stored.identical_groups,
        systems_named=named,
    )


# --------------------------------------------------------------------------------------
# E2E ratings


@dataclass(frozen=True)
class RatingsImported:
    file: str
    criterion: str
    judgements: int
    scores: int
    tasks: int
    workers: int
    new_workers: int
    items_created: int
    outputs_created: int
    texts_differing: int
    texts_differing_whitespace_only: int
    twin_pairs: int
    twin_pairs_equal_scores: int


def _ratings_store(
    *, campaign: Campaign, criterion: Criterion, parsed: ParsedRatings
) -> RatingsImported:
    file = parsed.file
    first_line_of_unit: dict[str, int] = {}
    for j in parsed.judgements:
        first_line_of_unit.setdefault(j.unit_id, j.line)
    clash = (
        Task.objects.filter(criterion=criterion, external_id__in=list(first_line_of_unit))
        .values_list("external_id", flat=True)
        .first()
    )
    if clash is not None:
        raise ImportFileError(
            f"criterion '{criterion.name}' of campaign '{campaign.slug}' already holds unit "
            f"{clash} (this file was imported before?); nothing was written.",
            file=file,
            line=first_line_of_unit[clash],
            field="_unit_id",
        )

    # Link every shown text to the output of its system for its MR; create what is missing.
    items = {ext: inp for ext, inp in campaign.items.values_list("external_id", "input")}
    outputs = {
        (ext, label): text
        for ext, label, text in Output.objects.filter(item__campaign=campaign).values_list(
            "item__external_id", "system__label", "text"
        )
    }
    missing: dict[tuple[str, str], OutputRow] = {}
    items_created: set[str] = set()
    for j in parsed.judgements:
        item_id = str(j.mr_id)
        known = items.get(item_id)
        if known is None:
            items[item_id] = j.mr
            items_created.add(item_id)
        elif collapse_whitespace(known) != collapse_whitespace(j.mr):
            raise ImportFileError(
                f"mr_id {j.mr_id} is '{known[:100]}' in the campaign, not this MR.",
                file=file,
                line=j.line,
                field="mr",
            )
        for system, text in zip(j.systems, j.texts, strict=True):
            if (item_id, system) not in outputs and (item_id, system) not in missing:
                missing[(item_id, system)] = OutputRow(
                    item_id=item_id, input=items[item_id], system=system, text=text
                )
    if missing:
        outputs_store(campaign=campaign, rows=list(missing.values()))
        outputs.update({(r.item_id, r.system): r.text for r in missing.values()})

    differing = differing_ws = twin_pairs = twin_equal = 0
    finished: list[FinishedJudgement] = []
    for j in parsed.judgements:
        item_id = str(j.mr_id)
        scores = []
        for slot, (system, text) in enumerate(zip(j.systems, j.texts, strict=True)):
            stored_text = outputs[(item_id, system)]
            if text != stored_text:
                differing += 1
                differing_ws += collapse_whitespace(text) == collapse_whitespace(stored_text)
            for twin in j.twins[slot]:
                twin_pairs += 1
                twin_equal += j.scores[slot] == j.scores[twin]
            scores.append(
                FinishedScore(
                    system=system, score=j.scores[slot], coverage=j.coverage[slot], text=text
                )
            )
        meta: dict[str, Any] = {"_id": j.judgement_id}
        if "_trust" in j.worker_metadata:
            meta["_trust"] = j.worker_metadata["_trust"]
        if any(j.twins):
            meta["dupl_ref"] = [[t + 1 for t in twins] for twins in j.twins]
        finished.append(
            FinishedJudgement(
                item_id=item_id,
                worker_id=j.worker_id,
                scores=tuple(scores),
                started_at=j.started_at,
                submitted_at=j.submitted_at,
                task_external_id=j.unit_id,
                worker_metadata=j.worker_metadata,
                metadata=meta,
            )
        )
    worker_ids = {j.worker_id for j in parsed.judgements}
    known_workers = set(
        campaign.workers.filter(
            platform=Worker.Platform.IMPORTED, external_id__in=list(worker_ids)
        ).values_list("external_id", flat=True)
    )
    count = judgements_store_finished(campaign=campaign, criterion=criterion, judgements=finished)
    return RatingsImported(
        file=file,
        criterion=criterion.name,
        judgements=count,
        scores=sum(len(f.scores) for f in finished),
        tasks=len(first_line_of_unit),
        workers=len(worker_ids),
        new_workers=len(worker_ids - known_workers),
        items_created=len(items_created),
        outputs_created=len(missing),
        texts_differing=differing,
        texts_differing_whitespace_only=differing_ws,
        twin_pairs=twin_pairs,
        twin_pairs_equal_scores=twin_equal,
    )


@transaction.atomic
def ratings_import(*, campaign: Campaign, criterion: Criterion, path: Path) -> RatingsImported:
    """Import a raw E2E RankME export (``quality.csv`` or ``naturalness.csv``).

    Tasks are rebuilt from the units (kind ``imported``, external id = ``_unit_id``,
    one slot per shown output in the file's order); each shown text is linked to its
    system's output for the MR (``mr_id`` is the item's external id). An output the
    campaign lacks is created from the shown text; a shown text that differs from the
    stored output is kept in ``TaskOutput.text``. Twins (``dupl_ref``) keep a slot each.
    Importing a file twice fails: its units exist already.
    """
    parsed = parse_e2e_ratings(Path(path))
    return _ratings_store(campaign=campaign, criterion=criterion, parsed=parsed)


# --------------------------------------------------------------------------------------
# A whole E2E folder


@dataclass(frozen=True)
class E2EImported:
    campaign: str
    campaign_created: bool
    systems: int
    items: int
    outputs: int
    identical_groups: int
    systems_named: int
    criteria: int
    ratings: tuple[RatingsImported, ...]
    workers: int
    seconds: float

    @property
    def judgements(self) -> int:
        return sum(r.judgements for r in self.ratings)

    @property
    def tasks(self) -> int:
        return sum(r.tasks for r in self.ratings)

    @property
    def scores(self) -> int:
        return sum(r.scores for r in self.ratings)


def e2e_import(*, campaign_slug: str, folder: Path) -> E2EImported:
    """Import an E2E folder: outputs, participants, both criteria and their ratings.

    ``folder`` holds ``system_outputs/<label>.tsv`` (or the TSVs themselves),
    optionally ``participants.tsv``, ``quality.csv`` and ``naturalness.csv``. The
    campaign is created (closed: its judgements are finished) when missing. The
    criteria ``quality`` and ``naturalness`` come from the presets of the same name
    (the E2E question wordings). All files are parsed before anything is written;
    then one transaction writes everything or nothing. A campaign that already holds
    these outputs is refused.
    """
    start = time.perf_counter()
    folder = Path(folder)
    parsed_outputs = parse_e2e_outputs(folder)
    parsed_ratings = {}
    for preset, name in E2E_RATING_FILES.items():
        path = folder / name
        if path.is_file():
            parsed = parse_e2e_ratings(path)
            if parsed.criterion != preset:
                raise ImportFileError(
                    f"{name} should hold {preset} scores but holds {parsed.criterion} scores.",
                    file=str(path),
                    line=1,
                    field=f"{'quality' if preset == 'quality' else 'natur'}1",
                )
            parsed_ratings[preset] = parsed
    if (folder / PARTICIPANTS_FILE).is_file():
        parse_participants(folder / PARTICIPANTS_FILE)  # fail before writing anything
    with transaction.atomic():
        campaign, created = campaign_get_or_create(
            slug=campaign_slug,
            name="E2E NLG Challenge (imported)",
            status=Campaign.Status.CLOSED,
        )
        if (
            not created
            and Judgement.objects.filter(
                criterion__campaign=campaign,
                criterion__name__in=list(E2E_RATING_FILES),
                task__kind=Task.Kind.IMPORTED,
            ).exists()
        ):
            raise DomainError(
                f"Campaign '{campaign.slug}' already holds imported E2E judgements; "
                "nothing was written (import into a new campaign)."
            )
        _outputs_check_against(campaign, parsed_outputs)
        stored = outputs_store(campaign=campaign, rows=parsed_outputs.rows)
        named = _systems_name(campaign, folder)
        criteria = {
            preset: criterion_from_preset(campaign=campaign, preset=preset)
            for preset in E2E_RATING_FILES
        }
        ratings = tuple(
            _ratings_store(campaign=campaign, criterion=criteria[preset], parsed=parsed)
            for preset, parsed in parsed_ratings.items()
        )
        workers = len({j.worker_id for p in parsed_ratings.values() for j in p.judgements})
    return E2EImported(
        campaign=campaign.slug,
        campaign_created=created,
        systems=stored.systems,
        items=stored.items,
        outputs=stored.outputs,
        identical_groups=stored.identical_groups,
        systems_named=named,
        criteria=len(criteria),
        ratings=ratings,
        workers=workers,
        seconds=time.perf_counter() - start,
    )


# --------------------------------------------------------------------------------------
# WMT relative ranking


WMT_QUESTION = "Rank the translations from best to worst (ties allowed)."


@dataclass(frozen=True)
class WMTImported:
    file: str
    criterion: str
    judgements: int
    skipped_unranked: int
    items_created: int
    systems_created: int
    outputs_created: int
    workers: int


def _wmt_criterion(*, campaign: Campaign, name: str, k: int) -> Criterion:
    criterion = campaign.criteria.filter(name=name).first()
    if criterion is not None:
        return criterion
    if name in CRITERION_PRESETS:
        return criterion_from_preset(campaign=campaign, preset=name)
    levels = [
        {"value": k + 1 - rank, "label": str(k + 1 - rank), "descriptor": f"ranked {rank} of {k}"}
        for rank in range(k, 0, -1)
    ]
    return Criterion.objects.create(
        campaign=campaign,
        name=name,
        question=WMT_QUESTION,
        show_input=True,
        scale=Criterion.Scale.LIKERT,
        scale_settings={"levels": levels, "source": "wmt-ranking"},
        position=campaign.criteria.count(),
    )


def _wmt_store(*, campaign: Campaign, criterion_name: str, parsed: ParsedWMT) -> WMTImported:
    source = Path(parsed.file).name
    criterion = _wmt_criterion(campaign=campaign, name=criterion_name, k=parsed.systems_per_row)
    if Judgement.objects.filter(criterion=criterion, metadata__wmt_file=source).exists():
        raise ImportFileError(
            f"criterion '{criterion.name}' of campaign '{campaign.slug}' already holds the "
            "rankings of a file with this name (imported before?); nothing was written.",
            file=parsed.file,
        )
    # Placeholders: WMT files carry no texts, so items and outputs are created empty.
    items = dict(campaign.items.values_list("external_id", "id"))
    systems = dict(campaign.systems.values_list("label", "id"))
    have = set(
        Output.objects.filter(item__campaign=campaign).values_list(
            "item__external_id", "system__label"
        )
    )
    position = len(items)
    new_items: dict[str, Item] = {}
    new_systems: dict[str, System] = {}
    for r in parsed.rankings:
        if r.segment_id not in items and r.segment_id not in new_items:
            new_items[r.segment_id] = Item(
                campaign=campaign, external_id=r.segment_id, input="", position=position
            )
            position += 1
        for label in r.systems:
            if label not in systems and label not in new_systems:
                new_systems[label] = System(campaign=campaign, label=label)
    Item.objects.bulk_create(list(new_items.values()), batch_size=BATCH_SIZE)
    System.objects.bulk_create(list(new_systems.values()), batch_size=BATCH_SIZE)
    items.update({ext: i.pk for ext, i in new_items.items()})
    systems.update({label: s.pk for label, s in new_systems.items()})
    new_outputs: list[Output] = []
    for r in parsed.rankings:
        for label in r.systems:
            if (r.segment_id, label) not in have:
                have.add((r.segment_id, label))
                new_outputs.append(
                    Output(item_id=items[r.segment_id], system_id=systems[label], text="")
                )
    Output.objects.bulk_create(new_outputs, batch_size=BATCH_SIZE)
    # Scores: k + 1 - rank, so that higher is better as for every other criterion.
    k = parsed.systems_per_row
    now = timezone.now()
    finished = [
        FinishedJudgement(
            item_id=r.segment_id,
            worker_id=r.judge_id,
            scores=tuple(
                FinishedScore(system=label, score=float(k + 1 - rank), rank=float(rank))
                for label, rank in zip(r.systems, r.ranks, strict=True)
            ),
            started_at=now,
            submitted_at=now,
            metadata={"wmt_file": source, "line": r.line},
        )
        for r in parsed.rankings
    ]
    count = judgements_store_finished(campaign=campaign, criterion=criterion, judgements=finished)
    return WMTImported(
        file=parsed.file,
        criterion=criterion.name,
        judgements=count,
        skipped_unranked=parsed.skipped_unranked,
        items_created=len(new_items),
        systems_created=len(new_systems),
        outputs_created=len(new_outputs),
        workers=len({r.judge_id for r in parsed.rankings}),
    )


@transaction.atomic
def wmt_import(*, campaign: Campaign, path: Path, criterion_name: str = "ranking") -> WMTImported:
    """Import a WMT relative-ranking CSV as finished judgements.

    Each ranked row becomes a task of its own (kind ``imported``, blank external id)
    judged once by the worker ``judgeId`` (platform ``imported``). ``rank`` is stored
    as given (1 = best) and ``score = k + 1 - rank`` so that higher is better. Items
    (external id ``segmentId``, input "") and outputs (text "") are created as
    placeholders when missing, since the files carry no texts; the judgement times are
    the import time (the files carry none). Rows with a rank of -1 are skipped and
    counted. The criterion is created when missing (a preset when ``criterion_name``
    names one, else a Likert scale over the k ranks). A file name imported before
    under the criterion is refused.
    """
    parsed = parse_wmt_csv(Path(path))
    return _wmt_store(campaign=campaign, criterion_name=criterion_name, parsed=parsed)
