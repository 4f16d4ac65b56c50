"""A row of a rating file read through a mapping: its outputs and, per criterion, one
worker's judgement of them (scores, ranks, content checks, coverage, times, metadata).
Pure: no Django."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from annotations.core.outputs import system_label
from annotations.core.scoring import score_refusal
from annotations.importing.parsers.common import id_bounded, ranked_within, row_language
from annotations.importing.parsers.mapped.cells import (
    Cells,
    parse_checks,
    parse_definition,
    parse_json_object,
    parse_number,
    parse_time,
)
from annotations.importing.parsers.mapped.mapping import (
    FROM_DEFINITION,
    MAX_SLOTS,
    CriterionColumns,
    Mapping,
)

#: the worker id of rows when the mapping names no worker column (aggregated reports)
AGGREGATE_WORKER = "aggregate"


@dataclass(frozen=True)
class MappedJudgement:
    """One worker's judgement of a row's outputs for one criterion."""

    line: int
    criterion: str
    item_id: str
    input: str
    worker_id: str
    unit_id: str
    systems: tuple[str, ...]
    texts: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[float | None, ...]
    started_at: datetime | None
    submitted_at: datetime | None
    metadata: dict[str, Any] = field(default_factory=dict)
    language: str = ""  # BCP 47 (checked), "" when the mapping has no language column
    checks: tuple[tuple[str, ...], ...] = ()  # per slot; () when not mapped
    coverage: tuple[str, ...] = ()  # per slot; () when not mapped

    @property
    def shown(self) -> list[tuple[str, str, float]]:
        """(system, text, score) of each slot."""
        return list(zip(self.systems, self.texts, self.scores, strict=True))


@dataclass(frozen=True)
class MappedRow:
    """A row as parsed: its outputs and, per criterion, its judgement (absent when the
    row holds a skip value for it)."""

    line: int
    item_id: str
    input: str
    worker_id: str
    unit_id: str
    systems: tuple[str, ...]
    texts: tuple[str, ...]
    judgements: tuple[MappedJudgement, ...]
    skipped: tuple[str, ...]
    language: str = ""
    input_language: str = ""  # BCP 47 (checked), "" when not mapped or the cell is empty


def _row_times(cells: Cells, mapping: Mapping) -> tuple[datetime | None, datetime | None]:
    """When the judgement started and was submitted; one of them stands for both when the
    mapping reads only one."""
    times: list[datetime | None] = []
    for key in ("started_at", "submitted_at"):
        column = getattr(mapping, key)
        times.append(
            parse_time(
                cells.value(column),
                fmt=mapping.time_format,
                file=cells.file,
                line=cells.line,
                field=column,
            )
            if column
            else None
        )
    started, submitted = times
    if started is None:
        started = submitted
    if submitted is None:
        submitted = started
    if started is not None and submitted is not None and submitted < started:
        raise cells.error("the submit time is before the start time.", mapping.submitted_at)
    return started, submitted


def _row_metadata(cells: Cells, mapping: Mapping) -> dict[str, Any]:
    """The JSON metadata cell's object, then the metadata columns."""
    metadata: dict[str, Any] = {}
    if mapping.metadata_json:
        raw = cells.value(mapping.metadata_json, required=False)
        if raw:
            metadata.update(
                parse_json_object(
                    raw, file=cells.file, line=cells.line, field=mapping.metadata_json
                )
            )
    metadata.update({column: cells.value(column, required=False) for column in mapping.metadata})
    return metadata


def _row_definition(cells: Cells, mapping: Mapping) -> dict[str, Any] | None:
    """The row's criterion definition (None: the mapping reads none, or the cell is empty)."""
    if not mapping.definition:
        return None
    raw = cells.value(mapping.definition, required=False)
    if not raw:
        return None
    return parse_definition(raw, file=cells.file, line=cells.line, field=mapping.definition)


def _row_outputs(cells: Cells, mapping: Mapping, k: int) -> tuple[list[str], list[str], list[int]]:
    """The row's systems, texts and slot numbers, up to the first empty system cell."""
    systems: list[str] = []
    texts: list[str] = []
    slot_numbers: list[int] = []
    for i in range(mapping.first, mapping.first + k):
        column = mapping.column(mapping.system, i)
        system = mapping.system_value or cells.get(column)
        if system is None:
            if mapping.slots == 0 and mapping.format == "jsonl" and len(systems) >= 1:
                break  # nested slots: the row's list ended
            cells.value(column)
        if not system:
            # the row's outputs end here (exports pad narrower judgements), with nothing
            # after: a score beside an empty system cell would be dropped unseen
            _refuse_values_after(cells, mapping, k, empty=i)
            break
        system = id_bounded(
            system_label(system), "system", file=cells.file, line=cells.line, field=column
        )
        if system in systems:
            raise cells.error(f"system '{system}' appears twice in the row.", column)
        systems.append(system)
        texts.append(
            cells.value(mapping.column(mapping.output, i), required=False) if mapping.output else ""
        )
        slot_numbers.append(i)
    if not systems:
        raise cells.error(
            "the row has no outputs (the first system cell is empty).",
            mapping.column(mapping.system, mapping.first),
        )
    return systems, texts, slot_numbers


def _optional_read(get: Any, optional: Sequence[str]) -> Any:
    """``get`` reading a missing ``optional`` column as empty (a file may lack it)."""

    def read(column: str) -> str | None:
        found = get(column)
        return "" if found is None and column in optional else found

    return read


def _refuse_values_after(cells: Cells, mapping: Mapping, k: int, *, empty: int) -> None:
    """Refuse a row whose slot ``empty`` has an empty system cell while it, or a slot after
    it, still has a system, an output, a score, a rank, content checks or a coverage
    label: that value would be dropped unseen."""
    blank = {"", *mapping.skip_values}
    for i in range(empty, mapping.first + k):
        columns = [
            mapping.column(pattern, i)
            for c in mapping.criteria
            for pattern in (c.score, c.rank, c.checks, c.coverage)
            if pattern
        ]
        if mapping.output:
            columns.insert(0, mapping.column(mapping.output, i))
        if i > empty:
            columns.insert(0, mapping.column(mapping.system, i))
        for column in columns:
            found = cells.get(column)
            if found is not None and found.strip() not in blank:
                raise cells.error(
                    f"the system is empty, but field '{column}' gives '{found.strip()[:40]}': "
                    "a row's outputs end at its first empty system cell, so that value would "
                    "be dropped. Give the system, or clear the value.",
                    mapping.column(mapping.system, empty),
                )


def _criterion_name(
    cells: Cells,
    mapping: Mapping,
    criterion: CriterionColumns,
    definition: dict[str, Any] | None,
    definitions: dict[str, tuple[dict[str, Any], int]],
) -> str:
    """The criterion's name (``*``: the row's definition's); a definition other than an
    earlier row's for the same criterion is an error."""
    name = criterion.name
    if name == FROM_DEFINITION:
        if definition is None:
            raise cells.error(
                "the row gives no criterion definition: name the criterion in the "
                f"mapping instead of '{FROM_DEFINITION}'.",
                mapping.definition,
            )
        name = definition["name"]
    if definition is not None:
        known = definitions.setdefault(name, (definition, cells.line))
        if {**known[0], "name": name} != {**definition, "name": name}:
            raise cells.error(
                f"criterion '{name}' is defined otherwise than on line {known[1]}.",
                mapping.definition,
            )
    return name


def _scores(
    cells: Cells, criterion: CriterionColumns, raws: list[tuple[str, str]], n: int
) -> tuple[list[float], list[float | None]]:
    """The scores of the row's ``n`` outputs, and their ranks when the scores are ranks
    (a rank r becomes the score n + 1 - r).

    Ranks up to ``MAX_SLOTS`` are read in a row of fewer outputs and ranked within the
    row (ties kept): WMT15-16's pairs cut from a five-way ranking keep its ranks (1 and
    3 become 1 and 2), as ``import_wmt`` reads them."""
    scores: list[float] = []
    ranks: list[float | None] = []
    for column, raw in raws:
        if not raw:
            raise cells.error("the value is empty.", column)
        number = parse_number(raw, file=cells.file, line=cells.line, field=column)
        if criterion.ranks:
            if not (number.is_integer() and 1 <= number <= max(n, MAX_SLOTS)):
                raise cells.error(f"'{raw}' is not a rank from 1 to {max(n, MAX_SLOTS)}.", column)
            ranks.append(number)
        else:
            refusal = score_refusal(raw, number)
            if refusal:
                raise cells.error(refusal, column)
            scores.append(number)
            ranks.append(None)
    if criterion.ranks:
        written = [float(r) for r in ranks if r is not None]
        if max(written) > n:  # a longer ranking's ranks
            written = [float(r) for r in ranked_within(written)]
        ranks = list(written)
        scores = [float(n + 1 - r) for r in written]
    return scores, ranks


def _rank_column(
    cells: Cells, mapping: Mapping, criterion: CriterionColumns, slot_numbers: list[int]
) -> list[float | None]:
    """The ranks of the criterion's rank columns (kept as given beside the scores)."""
    ranks: list[float | None] = []
    for i in slot_numbers:
        column = mapping.column(criterion.rank, i)
        raw = cells.value(column)
        rank = parse_number(raw, file=cells.file, line=cells.line, field=column)
        if not (rank.is_integer() and rank >= 1):
            raise cells.error(f"'{raw}' is not a rank (1 = best).", column)
        ranks.append(rank)
    return ranks


def _slot_extras(
    cells: Cells, mapping: Mapping, criterion: CriterionColumns, slot_numbers: list[int]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The criterion's content checks and coverage labels per slot (() when not mapped)."""
    checks: tuple[tuple[str, ...], ...] = ()
    if criterion.checks:
        checks = tuple(
            parse_checks(
                cells.value(mapping.column(criterion.checks, i), required=False),
                file=cells.file,
                line=cells.line,
                field=mapping.column(criterion.checks, i),
            )
            for i in slot_numbers
        )
    coverage: tuple[str, ...] = ()
    if criterion.coverage:
        coverage = tuple(
            cells.value(mapping.column(criterion.coverage, i), required=False)[:32]
            for i in slot_numbers
        )
    return checks, coverage


def parse_row(
    mapping: Mapping,
    k: int,
    line: int,
    get: Any,
    file: str,
    languages: dict[str, str],
    definitions: dict[str, tuple[dict[str, Any], int]] | None = None,
) -> MappedRow | None:
    """One record (``get``: its cells by column) read through the mapping: k outputs at
    most; ``languages`` and ``definitions`` carry what earlier rows gave."""
    if mapping.optional:
        get = _optional_read(get, mapping.optional)
    cells = Cells(get, file=file, line=line)
    value = cells.value
    item_id = id_bounded(value(mapping.item), "item", file=file, line=line, field=mapping.item)
    worker_id = (
        id_bounded(value(mapping.worker), "worker", file=file, line=line, field=mapping.worker)
        if mapping.worker
        else AGGREGATE_WORKER
    )
    input_text = value(mapping.input, required=False) if mapping.input else ""
    unit_id = (
        id_bounded(value(mapping.unit), "unit", file=file, line=line, field=mapping.unit)
        if mapping.unit
        else ""
    )
    language = (
        row_language(
            value(mapping.language, required=mapping.language not in mapping.optional),
            languages,
            file=file,
            line=line,
            field=mapping.language,
            names=True,  # as other tools write them: "German", "cze", "-1" for none
        )
        if mapping.language
        else ""
    )
    input_language = (
        row_language(
            value(
                mapping.input_language,
                required=mapping.input_language not in mapping.optional,
            ),
            languages,
            file=file,
            line=line,
            field=mapping.input_language,
            names=True,
        )
        if mapping.input_language
        else ""
    )
    started, submitted = _row_times(cells, mapping)
    metadata = _row_metadata(cells, mapping)
    definition = _row_definition(cells, mapping)
    systems, texts, slot_numbers = _row_outputs(cells, mapping, k)
    judgements: list[MappedJudgement] = []
    skipped: list[str] = []
    if definitions is None:
        definitions = {}
    for criterion in mapping.criteria:
        name = _criterion_name(cells, mapping, criterion, definition, definitions)
        raws = [
            (
                mapping.column(criterion.score, i),
                value(mapping.column(criterion.score, i), required=False),
            )
            for i in slot_numbers
        ]
        if any(raw in mapping.skip_values for _, raw in raws):
            skipped.append(name)
            continue
        scores, ranks = _scores(cells, criterion, raws, len(systems))
        if criterion.rank:
            ranks = _rank_column(cells, mapping, criterion, slot_numbers)
        checks, coverage = _slot_extras(cells, mapping, criterion, slot_numbers)
        judgements.append(
            MappedJudgement(
                line=line,
                criterion=name,
                item_id=item_id,
                input=input_text,
                worker_id=worker_id,
                unit_id=unit_id,
                systems=tuple(systems),
                texts=tuple(texts),
                scores=tuple(scores),
                ranks=tuple(ranks),
                started_at=started,
                submitted_at=submitted,
                metadata=metadata,
                language=language,
                checks=checks,
                coverage=coverage,
            )
        )
    return MappedRow(
        line=line,
        item_id=item_id,
        input=input_text,
        worker_id=worker_id,
        unit_id=unit_id,
        systems=tuple(systems),
        texts=tuple(texts),
        judgements=tuple(judgements),
        skipped=tuple(skipped),
        language=language,
        input_language=input_language,
    )
