"""Imports of column-mapped rating files (any platform's export, read through a
:class:`~annotations.importing.parsers.mapped.mapping.Mapping`), and the campaign's saved
mappings (``RatingMapping``)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeGuard

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from annotations.core.outputs import OutputRow
from annotations.importing import jobs
from annotations.importing.outputs import Upload
from annotations.importing.parsers.common import collapse_whitespace
from annotations.importing.parsers.mapped import ParsedMapped, parse_mapped, preview_mapped
from annotations.importing.parsers.mapped.cells import CHECK_KEYS
from annotations.importing.parsers.mapped.mapping import (
    FROM_DEFINITION,
    CriterionColumns,
    Mapping,
    MappingError,
    mapping_from_dict,
)
from annotations.importing.parsers.mapped.rows import AGGREGATE_WORKER, MappedRow
from annotations.importing.parsers.mapped.source import file_columns
from annotations.importing.parsers.presets import PRESETS, preset_mapping
from annotations.models import Campaign, Criterion, ImportJob, Judgement, Output, RatingMapping
from annotations.selectors.criteria import criterion_by_name
from annotations.services.campaigns import campaign_get_or_create
from annotations.services.criteria import (
    CRITERION_PRESETS,
    criterion_create_imported,
    likert_levels_inferred,
    likert_settings,
    magnitude_settings,
)
from annotations.services.finished_judgements import (
    FinishedJudgement,
    FinishedScore,
    judgements_refuse_if_archived,
    judgements_store_finished,
)
from annotations.services.outputs import items_inputs_fill, outputs_store
from common.errors import DomainError, ImportFileError

#: ImportJob.kind of a mapped ratings import run in the background
JOB_KIND = "ratings"

# --------------------------------------------------------------------------------------
# Mappings: built-in presets, saved ones, JSON


def mapping_parse(data: Any) -> Mapping:
    """A mapping from its JSON form (a dict, or JSON text); a wrong one is a DomainError."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise DomainError(
                f"The mapping is not valid JSON ({exc.msg}, line {exc.lineno})."
            ) from exc
        except RecursionError as exc:
            raise DomainError("The mapping is not valid JSON (nested too deeply).") from exc
    try:
        return mapping_from_dict(data)
    except MappingError as exc:
        raise DomainError(f"The {exc}") from exc


def mapping_resolve(*, campaign: Campaign | None, name: str) -> Mapping:
    """The mapping called ``name``: one the campaign saved, else a built-in preset."""
    if campaign is not None:
        saved = campaign.rating_mappings.filter(name=name).first()
        if saved is not None:
            return mapping_parse(saved.mapping)
    if name in PRESETS:
        return preset_mapping(name)
    known = sorted(PRESETS)
    if campaign is not None:
        known += list(campaign.rating_mappings.values_list("name", flat=True))
    raise DomainError(f"There is no mapping '{name}'; known: {', '.join(known)}.")


@transaction.atomic
def rating_mapping_save(
    *, campaign: Campaign, name: str, mapping: Mapping, user: Any = None
) -> RatingMapping:
    """Save ``mapping`` under ``name`` in the campaign (replacing one of that name).

    A built-in preset's name is refused: the saved one would hide it.
    """
    name = name.strip()
    if not name or len(name) > 64 or not all(c.isalnum() or c in "-_" for c in name):
        raise DomainError("A preset name uses letters, digits, - and _ (at most 64).")
    if name in PRESETS:
        raise DomainError(f"'{name}' is the name of a built-in preset; choose another.")
    saved, _ = RatingMapping.objects.update_or_create(
        campaign=campaign,
        name=name,
        defaults={
            "mapping": mapping.to_dict(),
            "created_by": user if user is not None and user.is_authenticated else None,
        },
    )
    return saved


# --------------------------------------------------------------------------------------
# Import


@dataclass(frozen=True)
class MappedImported:
    file: str
    judgements: int
    skipped: int
    rows: int
    criteria: tuple[str, ...]
    criteria_created: tuple[str, ...]
    items_created: int
    outputs_created: int
    workers: int
    texts_differing: int
    inputs_filled: int = 0
    #: per criterion created: "name: scale, from what" (a preset, the mapping, inferred)
    scales: tuple[str, ...] = ()
    #: judgements given the worker ``aggregate`` (the mapping names no worker column)
    aggregate: int = 0

    def summary(self) -> dict[str, Any]:
        """The fields (tuples as lists, the file's name without folders) and the notes."""
        data = {k: list(v) if isinstance(v, tuple) else v for k, v in self.__dict__.items()}
        return {**data, "file": Path(self.file).name, "notes": self.notes()}

    def notes(self) -> list[str]:
        """What the import did that the counts do not say, in sentences (the command and
        the import page show them)."""
        notes = [f"Scale of the criterion {how}." for how in self.scales]
        if self.texts_differing:
            notes.append(
                f"Texts differing: {self.texts_differing} output slots showed the worker a "
                "text other than the output's stored text (the campaign's output of that "
                "system for that item, or the first row's text in this file); the text "
                "shown is kept with the task and exported."
            )
        if self.inputs_filled:
            notes.append(
                f"Inputs filled: {self.inputs_filled} items the campaign had without an "
                "input took the file's."
            )
        if self.aggregate:
            notes.append(
                f"Worker '{AGGREGATE_WORKER}': the mapping names no worker column, so the "
                f"{self.aggregate} judgements are stored as those of one worker "
                f"'{AGGREGATE_WORKER}' (an aggregated report)."
            )
        return notes


def _preset_fits(preset: dict[str, Any] | None, columns: CriterionColumns) -> TypeGuard[dict]:
    """A new criterion takes its name's preset unless the mapping says otherwise."""
    return preset is not None and columns.scale in ("", preset["scale"]) and not columns.levels


def _criterion_from_definition(
    *, campaign: Campaign, name: str, definition: dict[str, Any], parsed: ParsedMapped, field: str
) -> Criterion:
    """A new criterion as the file's definition gives it (humaneval's exports), under
    the criteria service's rules: a definition they refuse is an error naming the
    file, the line that gives it and its column."""
    try:
        return criterion_create_imported(
            campaign=campaign,
            name=name,
            question=str(definition.get("question") or f"{name} (imported)"),
            show_input=bool(definition.get("show_input", True)),
            scale=definition["scale"],
            scale_settings=dict(definition.get("scale_settings") or {}),
            content_checks=list(definition.get("content_checks") or []),
            standard_input=str(definition.get("standard_input") or ""),
            standard_text=str(definition.get("standard_text") or ""),
        )
    except DomainError as exc:
        raise ImportFileError(
            f"the definition of criterion '{name}' is refused ({exc}); nothing was written.",
            file=parsed.file,
            line=parsed.definition_lines.get(name),
            field=field,
        ) from exc


def _criterion(
    *,
    campaign: Campaign,
    columns: CriterionColumns,
    parsed: ParsedMapped,
    definition: dict[str, Any] | None = None,
    definition_field: str = "",
) -> tuple[Criterion, bool, str]:
    """The campaign's criterion of that name, or a new one (as the file's definition
    gives it, else from the preset of that name when there is one, else of the
    mapping's scale and levels, else of a scale the scores fit), and how its scale was
    chosen (said in the import's summary). Content checks found in the file are offered
    by a criterion created without a definition; a criterion created for a file without
    content checks offers none (not even its preset's)."""
    scale_wanted = columns.scale or (definition or {}).get("scale", "")
    existing = criterion_by_name(campaign, columns.name)
    if existing is not None:
        if scale_wanted and existing.scale != scale_wanted:
            raise DomainError(
                f"Criterion '{columns.name}' of campaign '{campaign.slug}' has the scale "
                f"'{existing.scale}'; the {'mapping' if columns.scale else 'file'} says "
                f"'{scale_wanted}'. Map the scores to another criterion name, or change the "
                "mapping's scale."
            )
        return existing, False, ""
    if definition is not None:
        created = _criterion_from_definition(
            campaign=campaign,
            name=columns.name,
            definition=definition,
            parsed=parsed,
            field=definition_field,
        )
        return created, True, f"{_scale_text(created)}, as the file's definition gives it"
    ticked = {
        c for j in parsed.judgements if j.criterion == columns.name for cs in j.checks for c in cs
    }
    offered = [k for k in CHECK_KEYS if k in ticked] if columns.checks else []
    try:
        new, how = _criterion_new(
            campaign=campaign, columns=columns, parsed=parsed, content_checks=offered
        )
    except DomainError as exc:
        raise DomainError(f"Criterion '{columns.name}': {exc}") from exc
    return new, True, how


def _scale_text(criterion: Criterion) -> str:
    """The criterion's scale in words: 'Likert 1-5 (levels 1, 2, 3, 4, 5)', 'magnitude'."""
    if criterion.scale != Criterion.Scale.LIKERT:
        return str(criterion.scale)
    values = [lv.get("value") for lv in (criterion.scale_settings or {}).get("levels") or []]
    shown = ", ".join(str(v) for v in values)
    return f"Likert (levels {shown})"


def scale_inferred(scores: list[float]) -> tuple[str, list[int], str]:
    """The scale a criterion gets when neither the campaign, a definition, a preset nor
    the mapping gives one: (scale, Likert levels, from what). Whole numbers from 0 to 10
    make a Likert scale from min(1, lowest) to the highest (at least two levels: an
    all-zero yes/no question gets 0 and 1), numbers from 0 to 100 a slider, any other a
    magnitude estimate."""
    if not scores:
        return str(Criterion.Scale.MAGNITUDE), [], "no scores"
    low, high = min(scores), max(scores)
    seen = f"{len(scores)} scores from {low:g} to {high:g}"
    levels = likert_levels_inferred(scores)
    if levels is not None and low >= 0 and high <= 10:
        return str(Criterion.Scale.LIKERT), levels, f"whole numbers: {seen}"
    if low >= 0 and high <= 100:
        return str(Criterion.Scale.SLIDER), [], f"numbers from 0 to 100: {seen}"
    return str(Criterion.Scale.MAGNITUDE), [], f"numbers beyond 0-100 or fractions: {seen}"


def _criterion_new(
    *,
    campaign: Campaign,
    columns: CriterionColumns,
    parsed: ParsedMapped,
    content_checks: list[str],
) -> tuple[Criterion, str]:
    """A new criterion (through the criteria service, its refusals naming the criterion
    by ``_criterion``) offering ``content_checks``, and how its scale was chosen."""
    preset = CRITERION_PRESETS.get(columns.name)
    if _preset_fits(preset, columns):
        criterion = criterion_create_imported(
            campaign=campaign, preset=columns.name, content_checks=content_checks
        )
        return criterion, f"{_scale_text(criterion)}, from the criterion preset '{columns.name}'"
    scores = [s for j in parsed.judgements if j.criterion == columns.name for s in j.scores]
    scale, levels, reason = scale_inferred(scores)
    how = f"inferred from the file ({reason}); give scale and levels in the mapping to choose"
    if columns.levels:
        scale, levels, how = str(Criterion.Scale.LIKERT), list(columns.levels), "the mapping's"
    elif columns.scale:
        how = "the mapping's"
        if columns.scale == Criterion.Scale.LIKERT:
            levels = likert_levels_inferred(scores) or []
            if not levels:
                raise DomainError(
                    "a Likert scale needs whole-number scores (or its levels in the mapping)."
                )
            how = f"the mapping's scale, levels inferred from the file ({len(scores)} scores)"
        scale = columns.scale
    settings_: dict[str, Any]
    if scale == Criterion.Scale.LIKERT:
        settings_ = {**likert_settings(levels), "source": "mapped-import"}
    elif scale == Criterion.Scale.MAGNITUDE:
        settings_ = magnitude_settings()
    else:
        settings_ = {}
    criterion = criterion_create_imported(
        campaign=campaign,
        name=columns.name,
        question=f"{columns.name} (imported)",
        show_input=True,
        scale=scale,
        scale_settings=settings_,
        content_checks=content_checks,
    )
    return criterion, f"{_scale_text(criterion)}, {how}"


def _likert_check(
    *, mapping: Mapping, parsed: ParsedMapped, columns: CriterionColumns, criterion: Criterion
) -> None:
    """Every score of a Likert criterion is one of its levels: a score outside them is
    refused, naming the file, line, score column and the levels allowed."""
    if criterion.scale != Criterion.Scale.LIKERT:
        return
    levels = sorted(
        {
            level["value"]
            for level in (criterion.scale_settings or {}).get("levels") or []
            if isinstance(level, dict) and isinstance(level.get("value"), int | float)
        }
    )
    allowed = set(levels)
    for j in parsed.judgements:
        if j.criterion != criterion.name:
            continue
        for n, score in enumerate(j.scores):
            if score not in allowed:
                raise ImportFileError(
                    f"'{score:g}' is not a level of criterion '{criterion.name}' "
                    f"(Likert levels: {', '.join(f'{v:g}' for v in levels)}); nothing was "
                    "written.",
                    file=parsed.file,
                    line=j.line,
                    field=mapping.column(columns.score, mapping.first + n),
                )


def _criteria_columns(mapping: Mapping, parsed: ParsedMapped) -> list[CriterionColumns]:
    """The mapping's criteria, one named ``*`` becoming each name the file's
    definitions give."""
    out: list[CriterionColumns] = []
    for columns in mapping.criteria:
        if columns.name != FROM_DEFINITION:
            out.append(columns)
            continue
        names = dict.fromkeys(j.criterion for j in parsed.judgements)
        out += [replace(columns, name=name) for name in names]
    return out


def _criteria_store(
    *, campaign: Campaign, mapping: Mapping, parsed: ParsedMapped, source: str
) -> tuple[dict[str, Criterion], list[str], list[str]]:
    """The file's criteria by name, created when the campaign lacks them; the names
    created, and how each created one got its scale. A criterion that holds the
    judgements of a file of this name already is an error."""
    criteria: dict[str, Criterion] = {}
    created: list[str] = []
    scales: list[str] = []  # how each criterion created got its scale
    for columns in _criteria_columns(mapping, parsed):
        criterion, new, how = _criterion(
            campaign=campaign,
            columns=columns,
            parsed=parsed,
            definition=parsed.definitions.get(columns.name),
            definition_field=mapping.definition,
        )
        criteria[columns.name] = criterion
        _likert_check(mapping=mapping, parsed=parsed, columns=columns, criterion=criterion)
        if new:
            created.append(columns.name)
            scales.append(f"{columns.name}: {how}")
        elif Judgement.objects.filter(criterion=criterion, metadata__source=source).exists():
            raise ImportFileError(
                f"criterion '{criterion.name}' of campaign '{campaign.slug}' already holds the "
                "judgements of a file with this name (imported before?); nothing was written.",
                file=parsed.file,
            )
    return criteria, created, scales


@dataclass(frozen=True)
class _OutputsStored:
    """The campaign's outputs once the file's are stored: (item, system) -> text; and
    what was added."""

    outputs: dict[tuple[str, str], str]
    items_created: int
    outputs_created: int
    inputs_filled: int


def _item_input(
    *,
    items: dict[str, str],
    mapping: Mapping,
    row: MappedRow,
    file: str,
    items_created: set[str],
    inputs_filled: set[str],
) -> None:
    """Take the row's item: new (noted in ``items_created``), an input for an item the
    campaign has without one (``inputs_filled``), or the same input as the campaign's
    (another is an error)."""
    known = items.get(row.item_id)
    if known is None:
        items[row.item_id] = row.input
        items_created.add(row.item_id)
    elif mapping.input and not known and row.input:
        items[row.item_id] = row.input
        inputs_filled.add(row.item_id)
    elif mapping.input and known and collapse_whitespace(known) != collapse_whitespace(row.input):
        raise ImportFileError(
            f"item '{row.item_id}' has another input in the campaign ('{known[:100]}').",
            file=file,
            line=row.line,
            field=mapping.input,
        )


def _outputs_store(*, campaign: Campaign, mapping: Mapping, parsed: ParsedMapped) -> _OutputsStored:
    """Items and outputs: reuse the campaign's, create what is missing from the file."""
    file = parsed.file
    items = dict(campaign.items.values_list("external_id", "input"))
    outputs: dict[tuple[str, str], str] = {}
    output_language: dict[tuple[str, str], str] = {}
    for ext, label, text, language in Output.objects.filter(item__campaign=campaign).values_list(
        "item__external_id", "system__label", "text", "language"
    ):
        outputs[(ext, label)] = text
        output_language[(ext, label)] = language
    missing: dict[tuple[str, str], OutputRow] = {}
    items_created: set[str] = set()
    # Items the campaign has without an input, given one by the file: filled in (and
    # counted in the summary), not dropped.
    inputs_filled: set[str] = set()
    for row in parsed.rows:
        _item_input(
            items=items,
            mapping=mapping,
            row=row,
            file=file,
            items_created=items_created,
            inputs_filled=inputs_filled,
        )
        for system, text in zip(row.systems, row.texts, strict=True):
            key = (row.item_id, system)
            had = output_language.get(key) or (missing[key].language if key in missing else "")
            if row.language and had and had != row.language:
                raise ImportFileError(
                    f"the output of system '{system}' for item '{row.item_id}' is in "
                    f"'{had}', not '{row.language}'.",
                    file=file,
                    line=row.line,
                    field=mapping.language,
                )
            if key not in outputs and key not in missing:
                missing[key] = OutputRow(
                    item_id=row.item_id,
                    input=items[row.item_id],
                    system=system,
                    text=text,
                    language=row.language,
                )
    items_inputs_fill(campaign=campaign, inputs={i: items[i] for i in inputs_filled})
    if missing:
        outputs_store(campaign=campaign, rows=list(missing.values()))
        outputs.update({(r.item_id, r.system): r.text for r in missing.values()})
    return _OutputsStored(
        outputs=outputs,
        items_created=len(items_created),
        outputs_created=len(missing),
        inputs_filled=len(inputs_filled),
    )


def _finished(
    *,
    mapping: Mapping,
    parsed: ParsedMapped,
    outputs: dict[tuple[str, str], str],
    criteria: dict[str, Criterion],
    source: str,
) -> tuple[dict[str, list[FinishedJudgement]], int]:
    """The file's judgements, ready to store, by criterion name; and how many scores
    were given to a text other than the stored output's."""
    # Files without times get the import's, to the second (as exports write times), so
    # that an export re-imports to the same judgements.
    now = timezone.now().replace(microsecond=0)
    differing = 0
    finished: dict[str, list[FinishedJudgement]] = {name: [] for name in criteria}
    for j in parsed.judgements:
        scores = []
        for n, (system, text, score, rank) in enumerate(
            zip(j.systems, j.texts, j.scores, j.ranks, strict=True)
        ):
            stored = outputs[(j.item_id, system)]
            shown = text if mapping.output and text != stored else ""
            differing += bool(shown)
            scores.append(
                FinishedScore(
                    system=system,
                    score=score,
                    rank=rank,
                    text=shown,
                    coverage=j.coverage[n] if j.coverage else "",
                    checks=j.checks[n] if j.checks else (),
                )
            )
        finished[j.criterion].append(
            FinishedJudgement(
                item_id=j.item_id,
                worker_id=j.worker_id,
                scores=tuple(scores),
                started_at=j.started_at or now,
                submitted_at=j.submitted_at or now,
                task_external_id=j.unit_id,
                metadata={**j.metadata, "source": source, "line": j.line},
            )
        )
    return finished, differing


def _finished_store(
    *,
    campaign: Campaign,
    criteria: dict[str, Criterion],
    finished: dict[str, list[FinishedJudgement]],
    experts: bool,
    progress: Callable[[int, int], None] | None,
) -> int:
    """Store the judgements criterion by criterion, progress counted over all of them;
    returns how many were stored."""
    total = sum(len(v) for v in finished.values())
    done = 0
    count = 0
    for name, judgements in finished.items():
        offset = done

        def step(n: int, _of: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + n, total)

        count += judgements_store_finished(
            campaign=campaign,
            criterion=criteria[name],
            judgements=judgements,
            experts=experts,
            progress=step,
        )
        done += len(judgements)
    return count


def _store(
    *,
    campaign: Campaign,
    mapping: Mapping,
    parsed: ParsedMapped,
    source: str,
    experts: bool,
    progress: Callable[[int, int], None] | None,
) -> MappedImported:
    judgements_refuse_if_archived(campaign)  # before any criterion, item or output
    criteria, created, scales = _criteria_store(
        campaign=campaign, mapping=mapping, parsed=parsed, source=source
    )
    stored = _outputs_store(campaign=campaign, mapping=mapping, parsed=parsed)
    finished, differing = _finished(
        mapping=mapping, parsed=parsed, outputs=stored.outputs, criteria=criteria, source=source
    )
    count = _finished_store(
        campaign=campaign, criteria=criteria, finished=finished, experts=experts, progress=progress
    )
    return MappedImported(
        file=parsed.file,
        judgements=count,
        skipped=parsed.skipped,
        rows=len(parsed.rows),
        criteria=tuple(criteria),
        criteria_created=tuple(created),
        items_created=stored.items_created,
        outputs_created=stored.outputs_created,
        workers=len({j.worker_id for j in parsed.judgements}),
        texts_differing=differing,
        inputs_filled=stored.inputs_filled,
        scales=tuple(scales),
        aggregate=sum(j.worker_id == AGGREGATE_WORKER for j in parsed.judgements)
        if not mapping.worker
        else 0,
    )


@transaction.atomic
def mapped_import(
    *,
    campaign: Campaign,
    path: Path,
    mapping: Mapping,
    source: str = "",
    experts: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> MappedImported:
    """Import a rating file read through ``mapping`` into ``campaign``: all or nothing.

    The whole file is parsed first (errors name the file, line and field). Criteria the
    campaign lacks are created (as the file's ``definition`` column gives them, else a
    criterion preset of the same name, else the mapping's scale, else a scale the scores
    fit: Likert for whole numbers 0-10, slider for 0-100, magnitude otherwise; a new
    criterion offers the content checks its ``checks`` columns hold); one that exists
    with another scale than the mapping's (or the definition's) is an error. Content
    checks, coverage labels and ranks mapped per slot are stored with the scores, a
    ``metadata_json`` column's object and the ``metadata`` columns with the judgement. Items (external id = the item column, input = the input column) and outputs
    (text = the output column, "" without one) are created when missing (an item without
    an input takes the file's; a Likert score outside the criterion's levels is refused,
    naming file, line and column); a shown text
    that differs from the stored output is kept with the judgement's slot. Rows of one
    unit share a task; rows without a unit share one when they show the same item and
    systems (``judgements_store_finished``). Workers are ``imported`` workers (experts
    with ``experts``). ``source`` (default: the file name) is kept in every judgement's
    metadata; a source imported before under a criterion is refused.
    """
    parsed = parse_mapped(Path(path), mapping)
    return _store(
        campaign=campaign,
        mapping=mapping,
        parsed=parsed,
        source=source or Path(path).name,
        experts=experts,
        progress=progress,
    )


@transaction.atomic
def mapped_import_into(
    *, campaign_slug: str, path: Path, mapping: Mapping, experts: bool = False
) -> tuple[Campaign, bool, MappedImported]:
    """:func:`mapped_import` into the campaign of that slug (created when missing), all or
    nothing, the campaign too; with whether it was created."""
    campaign, created = campaign_get_or_create(slug=campaign_slug)
    summary = mapped_import(campaign=campaign, path=path, mapping=mapping, experts=experts)
    return campaign, created, summary


def _with_file(upload: Upload, fn: Callable[[Path], Any]) -> Any:
    """``fn`` on the upload written to a temporary file named as the upload (so that
    errors name the uploaded file, never a server path)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / upload.name
        path.write_bytes(upload.data)
        try:
            return fn(path)
        except ImportFileError as exc:
            if exc.file == str(path):
                raise ImportFileError(
                    exc.reason, file=upload.name, line=exc.line, field=exc.field
                ) from exc
            raise


def mapped_import_upload(
    *,
    campaign: Campaign,
    upload: Upload,
    mapping: Mapping,
    experts: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> MappedImported:
    """:func:`mapped_import` of an uploaded file (errors name the upload)."""
    result: MappedImported = _with_file(
        upload,
        lambda path: mapped_import(
            campaign=campaign,
            path=path,
            mapping=mapping,
            source=upload.name,
            experts=experts,
            progress=progress,
        ),
    )
    return MappedImported(**{**result.__dict__, "file": upload.name})


def mapped_preview_scales(
    *, campaign: Campaign | None, mapping: Mapping, parsed: ParsedMapped
) -> list[str]:
    """Per criterion of the mapping, the scale an import would give it, and from what
    (the preview says so before anything is written). A scale inferred here is
    inferred from the previewed rows only; the import infers it from every row."""
    notes: list[str] = []
    for columns in _criteria_columns(mapping, parsed):
        name = columns.name
        existing = criterion_by_name(campaign, name) if campaign is not None else None
        preset = CRITERION_PRESETS.get(name)
        if existing is not None:
            how = f"the campaign's criterion: {_scale_text(existing)}"
        elif name in parsed.definitions:
            how = f"new, {parsed.definitions[name].get('scale')} as the file's definition gives it"
        elif _preset_fits(preset, columns):
            how = f"new, {preset['scale']} from the criterion preset '{name}'"
        elif columns.levels:
            how = f"new, Likert with the mapping's levels {', '.join(map(str, columns.levels))}"
        elif columns.scale:
            how = f"new, {columns.scale} (the mapping's scale)"
        else:
            scores = [x for j in parsed.judgements if j.criterion == name for x in j.scores]
            scale, levels, reason = scale_inferred(scores)
            shown = f" (levels {', '.join(map(str, levels))})" if levels else ""
            how = (
                f"new, {scale}{shown} inferred from the {len(parsed.rows)} rows shown "
                f"({reason}; the import infers from every row): give scale and levels in the "
                "mapping to choose"
            )
        notes.append(f"{name}: {how}.")
    return notes


def mapped_preview_upload(*, upload: Upload, mapping: Mapping, rows: int = 5) -> ParsedMapped:
    """The first rows of an uploaded file as parsed (nothing is written)."""
    parsed: ParsedMapped = _with_file(upload, lambda path: preview_mapped(path, mapping, rows=rows))
    return replace(parsed, file=upload.name)


# --------------------------------------------------------------------------------------
# Uploads: during the request, or as a background job when large


@dataclass(frozen=True)
class MappedUploadOutcome:
    result: MappedImported | None = None
    job: ImportJob | None = None


def mapped_upload(
    *,
    campaign: Campaign,
    upload: Upload,
    mapping: Mapping,
    user: Any = None,
    experts: bool = False,
) -> MappedUploadOutcome:
    """Import an uploaded rating file: during the request when small, else as an
    ``ImportJob`` (kind ``ratings``) run by the Celery task ``annotations.import_job_run``
    once the job row is committed; the job keeps the file and the mapping."""
    if len(upload.data) <= settings.IMPORT_INLINE_MAX_BYTES:
        return MappedUploadOutcome(
            result=mapped_import_upload(
                campaign=campaign, upload=upload, mapping=mapping, experts=experts
            )
        )
    with transaction.atomic():
        job = ImportJob.objects.create(
            campaign=campaign,
            kind=JOB_KIND,
            filename=upload.name[:255],
            data=jobs._uploads_pack([upload]),
            options={"files": [upload.name], "mapping": mapping.to_dict(), "experts": experts},
            created_by=user if user is not None and user.is_authenticated else None,
        )
        transaction.on_commit(lambda: jobs.import_job_dispatch(job.pk))
    return MappedUploadOutcome(job=job)


def mapped_job_import(
    *, job: ImportJob, uploads: list[Upload], progress: Callable[[int, int], None]
) -> dict[str, Any]:
    """Run a ``ratings`` job's import (called by ``import_job_run``); its summary."""
    mapping = mapping_parse(job.options.get("mapping", {}))
    result = mapped_import_upload(
        campaign=job.campaign,
        upload=uploads[0],
        mapping=mapping,
        experts=bool(job.options.get("experts", False)),
        progress=progress,
    )
    return result.summary()


def mapped_columns_upload(*, upload: Upload, fmt: str) -> list[str]:
    """The uploaded file's column names (JSONL: the first object's keys); [] when the
    file cannot be read as ``fmt`` (the preview's error says why)."""
    try:
        columns: list[str] = _with_file(upload, lambda path: file_columns(path, fmt))
    except DomainError:
        return []
    return columns
