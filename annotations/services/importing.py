"""Imports: outputs, finished judgements (E2E RankME exports, WMT rankings), whole E2E.

Every public service parses its files completely (``annotations.importers``) and then
writes in one ``transaction.atomic``: on any error nothing is written and the error
(``ImportFileError``) names the file, the line and the field. Writes are bulk inserts
in batches with a fixed number of queries, whatever the number of rows.

``judgements_store_finished`` is the shared bulk writer of finished judgements (used by
the rating importers and the demo campaign generator). Large tables are written with
``_bulk_insert`` (ids allocated first, ``executemany`` on SQLite, ``COPY`` on
PostgreSQL, no model instances): imports are linear in the number of rows.

Uploads (``uploads_read``, ``outputs_import_uploads``) never show a server path in an
error; large ones run as an ``ImportJob`` (``import_job_create`` / ``import_job_run``,
the Celery task ``annotations.tasks.import_job_run_task``) that reports its progress.
Outputs are only added to draft campaigns.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple, cast

from django.conf import settings
from django.core.cache import cache
from django.db import connections, models, router, transaction
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
    ImportJob,
    Item,
    Judgement,
    JudgementScore,
    Output,
    System,
    Task,
    TaskOutput,
    Worker,
)
from annotations.services.campaigns import (
    CRITERION_PRESETS,
    OutputRow,
    campaign_get_or_create,
    criterion_from_preset,
    outputs_detect_identical,
    outputs_store,
)

BATCH_SIZE = 2000
# Rows per executemany call of the raw bulk inserter (and per progress report).
INSERT_CHUNK = 5000


# --------------------------------------------------------------------------------------
# The raw bulk inserter


def _allocate_ids(model: type[models.Model], n: int) -> list[int]:
    """``n`` fresh primary keys of ``model``'s table (inside the writing transaction).

    PostgreSQL draws them from the column's sequence; SQLite, whose writing transaction
    holds the database's write lock from its start (``transaction_mode`` IMMEDIATE),
    continues after the highest id it ever gave (``sqlite_sequence``).
    """
    connection = connections[router.db_for_write(model)]
    table = model._meta.db_table
    pk = str(model._meta.pk.column)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [table, pk, n],
            )
            return sorted(row[0] for row in cursor.fetchall())
        cursor.execute(f"SELECT MAX({connection.ops.quote_name(pk)}) FROM {table}")
        highest = cursor.fetchone()[0] or 0
        cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
        row = cursor.fetchone()
        start = max(highest, row[0] if row else 0) + 1
    return list(range(start, start + n))


def _bulk_insert(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    progress: Callable[[int], None] | None = None,
) -> list[int]:
    """Insert ``rows`` (tuples of the values of ``fields``, foreign keys as ids) and
    return their new ids, in order. Other fields take their model default.

    The ORM's ``bulk_create`` builds a model instance per row and prepares every value
    through its field: for the million rows of a large WMT file that is most of the
    import's time. Here ids are allocated first, values of the few field types used
    are adapted once per type, and the rows go through ``executemany`` in chunks.
    Call inside the writing transaction. ``progress(n)`` after each chunk of n rows.
    """
    if not rows:
        return []
    connection = connections[router.db_for_write(model)]
    if connection.vendor not in ("sqlite", "postgresql"):  # pragma: no cover
        objs = model._default_manager.bulk_create(
            [model(**dict(zip(fields, row, strict=True))) for row in rows],
            batch_size=BATCH_SIZE,
        )
        return [o.pk for o in objs]
    assert connection.in_atomic_block, "_bulk_insert runs inside the writing transaction"
    meta = model._meta
    named = [cast("models.Field[Any, Any]", meta.get_field(name)) for name in fields]
    now = timezone.now()
    rest: list[models.Field[Any, Any]] = [
        f for f in meta.concrete_fields if not f.primary_key and f.name not in fields
    ]
    constants = [
        json.dumps(f.get_default(), cls=f.encoder)
        if isinstance(f, models.JSONField) and connection.vendor == "postgresql"
        else f.get_db_prep_save(
            now
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
            else f.get_default(),
            connection=connection,
        )
        for f in rest
    ]
    adapters: list[Callable[[Any], Any] | None] = []
    for f in named:
        if isinstance(f, models.DateTimeField):
            # Imported judgements share few distinct times: adapt each once.
            adapters.append(
                functools.lru_cache(maxsize=4096)(connection.ops.adapt_datetimefield_value)
            )
        elif isinstance(f, models.JSONField):
            adapters.append(_json_adapter(f, connection))
        else:
            adapters.append(None)
    columns = [str(f.column) for f in (meta.pk, *named, *rest)]
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        connection.ops.quote_name(meta.db_table),
        ", ".join(connection.ops.quote_name(c) for c in columns),
        ", ".join(["%s"] * len(columns)),
    )
    # COPY in CSV form: text is quoted, so "" is an empty text; in nullable columns a
    # quoted "" (how the csv module writes None) is NULL. JSON goes as its text.
    nullable = [str(f.column) for f in (*named, *rest) if f.null]
    copy_sql = "COPY {} ({}) FROM STDIN WITH (FORMAT csv{})".format(
        connection.ops.quote_name(meta.db_table),
        ", ".join(connection.ops.quote_name(c) for c in columns),
        ", FORCE_NULL ({})".format(", ".join(connection.ops.quote_name(c) for c in nullable))
        if nullable
        else "",
    )
    ids = _allocate_ids(model, len(rows))
    pairs = [(i, adapt) for i, adapt in enumerate(adapters) if adapt is not None]
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            # Index pages of a large import stay in memory (the default cache is 2 MB).
            cursor.execute("PRAGMA cache_size = -262144")
        for start in range(0, len(rows), INSERT_CHUNK):
            chunk = rows[start : start + INSERT_CHUNK]
            params = []
            for pk, row in zip(ids[start : start + INSERT_CHUNK], chunk, strict=True):
                values = list(row)
                for i, adapt in pairs:
                    values[i] = adapt(values[i])
                params.append((pk, *values, *constants))
            if connection.vendor == "postgresql":
                # psycopg2's executemany is a round trip per row: COPY streams the chunk.
                buffer = io.StringIO()
                csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC).writerows(params)
                buffer.seek(0)
                cursor.cursor.copy_expert(copy_sql, buffer)
            else:
                cursor.executemany(sql, params)
            if progress is not None:
                progress(len(chunk))
    return ids


def _json_adapter(f: models.JSONField[Any], connection: Any) -> Callable[[Any], Any]:
    """A JSON field's value as the database takes it, adapted once per distinct object:
    rows often share one value (every judgement of k outputs has the same display
    order), and the memo keeps each object alive, so its id cannot be reused."""
    memo: dict[int, tuple[Any, Any]] = {}

    def adapt(value: Any) -> Any:
        hit = memo.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        if connection.vendor == "postgresql":  # COPY takes JSON as text
            adapted = json.dumps(value, cls=f.encoder)
        else:
            adapted = connection.ops.adapt_json_value(value, f.encoder)
        if isinstance(value, list | dict) and len(memo) < 4096:
            memo[id(value)] = (value, adapted)
        return adapted

    return adapt


def _competition_ranks(scores: Sequence[float]) -> list[float]:
    """Rank 1 for the highest score, ties sharing the best rank of their group: the
    rule of ``annotations.scoring.ranks_from_scores`` (tested equal), in plain Python,
    which for a judgement's handful of scores is far cheaper than the array version."""
    return [1.0 + sum(other > score for other in scores) for score in scores]


E2E_RATING_FILES = {"quality": "quality.csv", "naturalness": "naturalness.csv"}


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
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Store finished judgements with their tasks, workers and assignments, in bulk.

    Creates, per task key, a ``Task`` (kind ``imported``) and its ``TaskOutput`` slots;
    the workers (``platform``, created when missing); per judgement an ``Assignment``
    (kind ``imported``, state ``submitted``), a ``Judgement`` and a ``JudgementScore``
    per slot. The items and outputs must exist (matched by item external id and system
    label). A task external id the criterion already has is an error, so the same
    judgements cannot be stored twice. Returns the number of judgements stored.
    A fixed number of queries per chunk of rows (raw bulk inserts, no model instances);
    ``progress(rows written, rows to write)`` is called after each chunk.
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
    item_of_task: list[int] = []  # per new task: its item's id
    task_rows: list[tuple[Any, ...]] = []
    task_of: dict[str, int] = {}  # task key -> index into task_rows
    systems_of: dict[str, tuple[str, ...]] = {}
    slots_of_task: list[list[tuple[int, int, str]]] = []  # per task: (output, slot, text)
    task_for_judgement: list[int] = []
    task_kind = Task.Kind.IMPORTED.value
    for j in judgements:
        index = task_of.get(j.task_external_id) if j.task_external_id else None
        if index is None:
            index = len(task_rows)
            item_id = items[j.item_id]
            task_rows.append(
                (
                    campaign.pk,
                    criterion.pk,
                    item_id,
                    task_kind,
                    number,
                    j.task_external_id,
                )
            )
            item_of_task.append(item_id)
            number += 1
            if j.task_external_id:
                task_of[j.task_external_id] = index
                systems_of[j.task_external_id] = tuple(s.system for s in j.scores)
            slots = []
            for slot, s in enumerate(j.scores):
                output_id, text = outputs[(j.item_id, s.system)]
                slots.append((output_id, slot, s.text if s.text and s.text != text else ""))
            slots_of_task.append(slots)
        elif systems_of[j.task_external_id] != tuple(s.system for s in j.scores):
            raise DomainError(
                f"Task '{j.task_external_id}' shows different systems in different judgements."
            )
        task_for_judgement.append(index)

    # Progress counts rows written: tasks, slots, assignments, judgements and scores.
    n_scores = sum(len(j.scores) for j in judgements)
    total = len(task_rows) + sum(map(len, slots_of_task)) + 2 * len(judgements) + n_scores
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    task_ids = _bulk_insert(
        Task,
        ("campaign", "criterion", "item", "kind", "number", "external_id"),
        task_rows,
        progress=advance,
    )
    _bulk_insert(
        TaskOutput,
        ("task", "output", "slot", "text"),
        [
            (task_id, output_id, slot, text)
            for task_id, slots in zip(task_ids, slots_of_task, strict=True)
            for output_id, slot, text in slots
        ],
        progress=advance,
    )
    orders: dict[int, list[int]] = {}  # one display order per k, adapted once
    worker_pk = {ext: w.pk for ext, w in workers.items()}
    imported, submitted = Assignment.Kind.IMPORTED.value, Assignment.State.SUBMITTED.value
    assignment_ids = _bulk_insert(
        Assignment,
        (
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
        [
            (
                worker_pk[j.worker_id],
                task_ids[index],
                item_of_task[index],
                criterion.pk,
                imported,
                submitted,
                orders.setdefault(len(j.scores), list(range(len(j.scores)))),
                j.started_at,
                j.submitted_at,
            )
            for j, index in zip(judgements, task_for_judgement, strict=True)
        ],
        progress=advance,
    )
    min_seconds = campaign.min_seconds_per_task
    judgement_rows = []
    for j, index, assignment_id in zip(judgements, task_for_judgement, assignment_ids, strict=True):
        seconds = (j.submitted_at - j.started_at).total_seconds()
        judgement_rows.append(
            (
                assignment_id,
                task_ids[index],
                worker_pk[j.worker_id],
                criterion.pk,
                j.started_at,
                j.submitted_at,
                seconds,
                bool(min_seconds) and seconds < min_seconds,
                dict(j.metadata),
            )
        )
    judgement_ids = _bulk_insert(
        Judgement,
        (
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
        judgement_rows,
        progress=advance,
    )
    score_rows = []
    for j, judgement_id in zip(judgements, judgement_ids, strict=True):
        given = all(s.rank is not None for s in j.scores)
        derived = [] if given else _competition_ranks([s.score for s in j.scores])
        for slot, s in enumerate(j.scores):
            score_rows.append(
                (
                    judgement_id,
                    outputs[(j.item_id, s.system)][0],
                    slot,
                    s.score,
                    s.rank if s.rank is not None else derived[slot],
                    s.coverage,
                )
            )
    _bulk_insert(
        JudgementScore,
        ("judgement", "output", "slot", "score", "rank", "coverage"),
        score_rows,
        progress=advance,
    )
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
    # New systems that no built task shows yet (tasks were built before this import):
    # they will never be judged unless the tasks are rebuilt.
    systems_not_in_tasks: tuple[str, ...] = ()


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


def _outputs_write(
    *, campaign: Campaign, rows: Sequence[OutputRow], progress: Callable[[int, int], None] | None
) -> tuple[int, int, int, tuple[str, ...]]:
    """Store checked outputs (new systems, new items, outputs) with raw bulk inserts.

    Returns (systems created, items created, identical groups, new systems no built
    task shows). ``progress(outputs written, outputs to write)`` after each chunk.
    """
    systems = dict(campaign.systems.values_list("label", "id"))
    new_systems = [
        System(campaign=campaign, label=label)
        for label in dict.fromkeys(r.system for r in rows)
        if label not in systems
    ]
    System.objects.bulk_create(new_systems, batch_size=BATCH_SIZE)
    systems.update({s.label: s.pk for s in new_systems})
    items = dict(campaign.items.values_list("external_id", "id"))
    new_items = {r.item_id: r.input for r in rows if r.item_id not in items}
    item_ids = _bulk_insert(
        Item,
        ("campaign", "external_id", "input", "position"),
        [
            (campaign.pk, external_id, text, len(items) + n)
            for n, (external_id, text) in enumerate(new_items.items())
        ],
    )
    items.update(zip(new_items, item_ids, strict=True))
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, len(rows))

    _bulk_insert(
        Output,
        ("item", "system", "text"),
        [(items[r.item_id], systems[r.system], r.text) for r in rows],
        progress=advance,
    )
    groups = outputs_detect_identical(campaign=campaign)
    unjudged: tuple[str, ...] = ()
    if new_systems and campaign.tasks.exists():
        unjudged = tuple(s.label for s in new_systems)
    return len(new_systems), len(new_items), groups, unjudged


def _outputs_refuse_unless_draft(campaign: Campaign) -> None:
    status = Campaign.objects.filter(pk=campaign.pk).values_list("status", flat=True).first()
    if status is not None and status != Campaign.Status.DRAFT:
        label = Campaign.Status(status).label.lower()
        raise DomainError(
            f"Campaign '{campaign.slug}' is {label}: outputs can only be added to a draft "
            "campaign, since its tasks were built from the outputs it had and workers "
            "may be judging them. Nothing was imported; for new systems, start a new "
            "campaign (or a second round)."
        )


@transaction.atomic
def outputs_import(
    *,
    campaign: Campaign,
    path: Path,
    progress: Callable[[int, int], None] | None = None,
) -> OutputsImported:
    """Import outputs from a CSV, a JSONL file or a folder of E2E ``<system>.tsv`` files.

    The format is chosen by the extension (a folder is E2E-style; its
    ``participants.tsv`` names the systems). All or nothing. Only a draft campaign
    takes outputs (a live, paused, closed or archived one is refused). New systems
    that tasks built earlier do not show are named in ``systems_not_in_tasks`` (the
    designer must rebuild the tasks, or they are never judged).
    ``progress(outputs written, outputs to write)`` reports the writing.
    """
    _outputs_refuse_unless_draft(campaign)
    path = Path(path)
    parsed = _parse_outputs(path)
    _outputs_check_against(campaign, parsed)
    if progress is not None:
        progress(0, len(parsed.rows))
    systems, items, groups, unjudged = _outputs_write(
        campaign=campaign, rows=parsed.rows, progress=progress
    )
    named = 0
    if path.is_dir():
        named = _systems_name(campaign, path)
    return OutputsImported(
        file=str(path),
        systems=systems,
        items=items,
        outputs=len(parsed.rows),
        identical_groups=groups,
        systems_named=named,
        systems_not_in_tasks=unjudged,
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
    new_items = [
        segment
        for segment in dict.fromkeys(r.segment_id for r in parsed.rankings)
        if segment not in items
    ]
    new_systems = [
        System(campaign=campaign, label=label)
        for label in dict.fromkeys(label for r in parsed.rankings for label in r.systems)
        if label not in systems
    ]
    item_ids = _bulk_insert(
        Item,
        ("campaign", "external_id", "input", "position"),
        [(campaign.pk, segment, "", len(items) + n) for n, segment in enumerate(new_items)],
    )
    System.objects.bulk_create(new_systems, batch_size=BATCH_SIZE)
    items.update(zip(new_items, item_ids, strict=True))
    systems.update({s.label: s.pk for s in new_systems})
    new_outputs: list[tuple[int, int, str]] = []
    for r in parsed.rankings:
        for label in r.systems:
            if (r.segment_id, label) not in have:
                have.add((r.segment_id, label))
                new_outputs.append((items[r.segment_id], systems[label], ""))
    _bulk_insert(Output, ("item", "system", "text"), new_outputs)
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


# --------------------------------------------------------------------------------------
# Uploads (web and API) and background import jobs


class UploadTooLargeError(ImportFileError):
    """An upload over ``settings.IMPORT_UPLOAD_MAX_BYTES`` (HTTP 413)."""


@dataclass(frozen=True)
class Upload:
    """An uploaded file: the name the designer gave it (no folders) and its bytes."""

    name: str
    data: bytes


def _megabytes(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB"


def uploads_read(*, files: Sequence[Any]) -> list[Upload]:
    """The uploaded files' names and bytes, refusing any upload over the limit.

    ``files`` are Django ``UploadedFile`` objects (``name``, ``size``, ``chunks()``);
    sizes are checked before anything is read into memory.
    """
    limit = settings.IMPORT_UPLOAD_MAX_BYTES
    if not files:
        raise DomainError("Choose at least one file to upload.")
    names = [Path(f.name or "").name or f"upload-{i + 1}" for i, f in enumerate(files)]
    for name, f in zip(names, files, strict=True):
        if f.size > limit:
            raise UploadTooLargeError(
                f"the file is {_megabytes(f.size)}; uploads are limited to "
                f"{_megabytes(limit)}. Split it into several files, or import it on the "
                "server with 'manage.py import_outputs'.",
                file=name,
            )
    total = sum(f.size for f in files)
    if total > limit:
        raise UploadTooLargeError(
            f"the files are {_megabytes(total)} together; an upload is limited to "
            f"{_megabytes(limit)}. Upload them in several parts.",
            file=", ".join(names)[:200],
        )
    return [
        Upload(name=name, data=b"".join(f.chunks())) for name, f in zip(names, files, strict=True)
    ]


def _scrub(text: str, tmp: str) -> str:
    """A message without the server's temporary folder: only the uploaded file names."""
    text = re.sub(re.escape(tmp) + r"/(?:outputs|\d+)/", "", text)
    return text.replace(tmp + "/outputs", "the uploaded .tsv files").replace(tmp, "upload")


def outputs_import_uploads(
    *,
    campaign: Campaign,
    uploads: Sequence[Upload],
    progress: Callable[[int, int], None] | None = None,
) -> list[OutputsImported]:
    """Import uploaded output files (any outputs format) into a draft campaign.

    E2E-style ``<system>.tsv`` files (and ``participants.tsv``) form one folder; every
    other file is imported on its own. All files go in one transaction: when one fails,
    nothing of any file is kept, and the error names the uploaded file (never a path
    on the server), the line and the field.
    """
    if not uploads:
        raise DomainError("Choose at least one file to upload.")
    _outputs_refuse_unless_draft(campaign)
    with tempfile.TemporaryDirectory(prefix="humaneval-upload-") as tmp:
        folder = Path(tmp) / "outputs"
        paths: list[Path] = []
        for i, upload in enumerate(uploads):
            if upload.name.lower().endswith(".tsv"):
                folder.mkdir(exist_ok=True)
                path = folder / upload.name
            else:
                (Path(tmp) / str(i)).mkdir()
                path = Path(tmp) / str(i) / upload.name
                paths.append(path)
            path.write_bytes(upload.data)
        if folder.exists():
            paths.insert(0, folder)
        offset = [0, 0]

        def report(done: int, total: int) -> None:
            if progress is not None:
                progress(offset[0] + done, offset[1] + total)

        results = []
        try:
            with transaction.atomic():
                for path in paths:
                    result = outputs_import(campaign=campaign, path=path, progress=report)
                    offset[0] += result.outputs
                    offset[1] += result.outputs
                    results.append(result)
        except ImportFileError as exc:
            raise ImportFileError(
                _scrub(exc.reason, tmp),
                file=_scrub(exc.file, tmp),
                line=exc.line,
                field=exc.field,
            ) from exc
        except DomainError as exc:
            raise DomainError(_scrub(str(exc), tmp)) from exc
    return [replace(r, file=_scrub(r.file, tmp)) for r in results]


def _uploads_pack(uploads: Sequence[Upload]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for upload in uploads:
            archive.writestr(upload.name, upload.data)
    return buffer.getvalue()


def _uploads_unpack(data: bytes) -> list[Upload]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [Upload(name=n, data=archive.read(n)) for n in archive.namelist()]


def import_job_create(
    *,
    campaign: Campaign,
    uploads: Sequence[Upload],
    user: Any = None,
    queue: bool = True,
) -> ImportJob:
    """A pending job importing ``uploads`` as outputs; queued once the row is committed.

    The files are kept in the job (zipped), so that a Celery worker on another machine
    can read them; they are dropped when the job ends.
    """
    if not uploads:
        raise DomainError("Choose at least one file to upload.")
    _outputs_refuse_unless_draft(campaign)
    with transaction.atomic():
        job = ImportJob.objects.create(
            campaign=campaign,
            kind="outputs",
            filename=", ".join(u.name for u in uploads)[:255],
            data=_uploads_pack(uploads),
            options={"files": [u.name for u in uploads]},
            created_by=user if user is not None and user.is_authenticated else None,
        )
        if queue:
            transaction.on_commit(lambda: _import_job_dispatch(job.pk))
    return job


def _import_job_dispatch(job_id: int) -> None:
    """Hand a committed job to Celery.

    Without a broker (the embedded set-up) Celery runs tasks in-process; the job then
    runs in a background thread of the web process (``IMPORTS_IN_THREAD``), so that the
    page can show its progress, as ranking runs do. ``apply`` keeps a failure in the
    task's result (the job records it): it never surfaces in the request that queued it.
    """
    from annotations.tasks import import_job_run_task

    if not import_job_run_task.app.conf.task_always_eager:
        import_job_run_task.delay(job_id)
    elif settings.IMPORTS_IN_THREAD:
        threading.Thread(
            target=_import_job_in_thread, args=(job_id,), name=f"import-job-{job_id}", daemon=True
        ).start()
    else:
        import_job_run_task.apply(args=(job_id,))


def _import_job_in_thread(job_id: int) -> None:
    from annotations.tasks import import_job_run_task

    try:
        import_job_run_task.apply(args=(job_id,))
    finally:
        connections.close_all()


def _progress_key(job_id: int) -> str:
    return f"humaneval:import-job:{job_id}:progress"


class _JobProgress:
    """Writes a job's ``rows_done``/``rows_total`` where a polling page can read them.

    The import writes inside one transaction, whose changes no other connection sees
    until it commits. On PostgreSQL the progress therefore goes through a connection of
    its own (autocommit); SQLite allows one writer at a time, so there it goes to the
    cache (the embedded set-up runs jobs in a thread of the web process, which shares
    the local-memory cache with the page). At most four writes a second.
    """

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.last = 0.0
        self.side: Any = None

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.last < 0.25:
            return
        self.last = now
        connection = connections["default"]
        if not connection.in_atomic_block:
            ImportJob.objects.filter(pk=self.job_id).update(rows_done=done, rows_total=total)
        elif connection.vendor == "postgresql":
            if self.side is None:
                self.side = connections.create_connection("default")
            with self.side.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {ImportJob._meta.db_table} "
                    "SET rows_done = %s, rows_total = %s WHERE id = %s",
                    [done, total, self.job_id],
                )
        cache.set(_progress_key(self.job_id), (done, total), timeout=24 * 3600)

    def close(self) -> None:
        if self.side is not None:
            self.side.close()
        cache.delete(_progress_key(self.job_id))


def import_job_progress(*, job: ImportJob) -> tuple[int, int]:
    """(rows done, rows total) of a job, the freshest of the row and the cache."""
    cached = cache.get(_progress_key(job.pk)) if job.status == ImportJob.Status.RUNNING else None
    if cached is not None and cached[0] >= job.rows_done:
        return int(cached[0]), int(cached[1])
    return job.rows_done, job.rows_total


def import_job_run(*, job: ImportJob) -> ImportJob:
    """Run a pending job: import its files and record the result or the error.

    A refused file (``DomainError``) is a result, recorded on the job with the file,
    line and field; an unexpected failure is recorded and re-raised. Either way the
    stored files are dropped. Running a job that has started already does nothing.
    """
    claimed = ImportJob.objects.filter(pk=job.pk, status=ImportJob.Status.PENDING).update(
        status=ImportJob.Status.RUNNING, started_at=timezone.now()
    )
    job.refresh_from_db()
    if not claimed:
        return job
    progress = _JobProgress(job.pk)
    try:
        results = outputs_import_uploads(
            campaign=job.campaign, uploads=_uploads_unpack(bytes(job.data)), progress=progress
        )
    except DomainError as exc:
        job.status = ImportJob.Status.FAILED
        job.error = str(exc)
        if isinstance(exc, ImportFileError):
            job.summary = {
                "file": exc.file,
                "line": exc.line,
                "field": exc.field,
                "reason": exc.reason,
            }
    except Exception:
        job.status = ImportJob.Status.FAILED
        job.error = "The import failed unexpectedly; nothing was imported. Please try again."
        _import_job_finish(job, progress)
        raise
    else:
        job.status = ImportJob.Status.DONE
        job.rows_done = job.rows_total = sum(r.outputs for r in results)
        job.summary = {
            "files": [r.file for r in results],
            "outputs": sum(r.outputs for r in results),
            "systems": sum(r.systems for r in results),
            "items": sum(r.items for r in results),
            "identical_groups": sum(r.identical_groups for r in results),
            "systems_not_in_tasks": sorted({s for r in results for s in r.systems_not_in_tasks}),
        }
    _import_job_finish(job, progress)
    return job


def _import_job_finish(job: ImportJob, progress: _JobProgress) -> None:
    progress.close()
    job.data = b""
    job.finished_at = timezone.now()
    job.save(
        update_fields=[
            "status",
            "error",
            "summary",
            "rows_done",
            "rows_total",
            "data",
            "finished_at",
        ]
    )
