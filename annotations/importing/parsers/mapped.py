"""Column-mapped rating files: CSV, TSV or JSONL with k outputs per row, read through a
:class:`Mapping` that says which column means what.

A row is one worker's judgement of the k outputs shown for an item, for one or more
criteria. The mapping names the worker id, item id and (optionally) input, unit (task)
id, language (a BCP 47 code per row: the outputs' language), time and metadata columns, and per slot ``i`` the system, output text and, per
criterion, score columns as patterns with ``{i}`` (``team{i}``, ``ref{i}``,
``quality{i}``), numbered from ``first`` (1 or 0). In JSONL a column is a key, or a
dotted path into nested objects and lists (``outputs.{i}.score`` with ``first`` 0).

``slots`` is k (2..10), or 0 for "as many as the header has" (counted from ``first``
while the system column exists). A row may hold fewer outputs than k: a slot whose
system cell is empty ends the row's outputs (exports pad narrower judgements so). A
score equal to one of ``skip_values`` (e.g. WMT's ``-1``, "not ranked") leaves that
criterion's judgement of the row out; it is counted, not stored. With ``ranks`` a
criterion's values are ranks (1 = best, ties share a rank): the score is
``k + 1 - rank`` so that higher is better, and the rank is kept as given.

Pure: no Django. Errors are :class:`ImportFileError` naming the file, the line (the
header is line 1) and the field (the column or key).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Sequence
from collections.abc import Mapping as MappingType
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from annotations.importing.parsers.common import CsvTable, read_text, refuse_nul, row_language
from common.errors import ImportFileError

FORMATS = ("csv", "tsv", "jsonl")
MIN_SLOTS, MAX_SLOTS = 2, 10
#: time formats besides strptime patterns: ISO 8601, or seconds since 1970 (UTC)
TIME_ISO, TIME_EPOCH = "iso", "epoch"
#: the worker id of rows when the mapping names no worker column (aggregated reports)
AGGREGATE_WORKER = "aggregate"
_NAME = re.compile(r"^[a-z0-9_-]{1,64}$")


class MappingError(ValueError):
    """The mapping itself is wrong (before any file is read); ``field`` names the setting."""

    def __init__(self, message: str, *, field: str) -> None:
        self.field = field
        super().__init__(f"mapping, field '{field}': {message}")


@dataclass(frozen=True)
class CriterionColumns:
    """One criterion of a mapping: its name, its score pattern, and how to read it.

    ``scale`` (``likert``, ``magnitude``, ``slider`` or "" for "whatever the campaign
    has") is used to create the criterion when the campaign lacks it, and checked
    against it when it exists.
    """

    name: str
    score: str
    ranks: bool = False
    scale: str = ""


@dataclass(frozen=True)
class Mapping:
    """Which column means what in a rating file (see the module docstring)."""

    format: str
    item: str
    system: str
    criteria: tuple[CriterionColumns, ...]
    worker: str = ""
    input: str = ""
    output: str = ""
    unit: str = ""
    language: str = ""
    slots: int = 0
    first: int = 1
    started_at: str = ""
    submitted_at: str = ""
    time_format: str = ""
    metadata: tuple[str, ...] = ()
    skip_values: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["criteria"] = [asdict(c) for c in self.criteria]
        data["metadata"] = list(self.metadata)
        data["skip_values"] = list(self.skip_values)
        return data

    def column(self, pattern: str, i: int) -> str:
        return pattern.replace("{i}", str(i))


_STR_FIELDS = (
    "format",
    "item",
    "system",
    "worker",
    "input",
    "language",
    "output",
    "unit",
    "started_at",
    "submitted_at",
    "time_format",
)


def mapping_from_dict(data: MappingType[str, Any]) -> Mapping:
    """A mapping from its JSON form, checked; a wrong setting is a :class:`MappingError`."""
    if not isinstance(data, MappingType):
        raise MappingError("a mapping is a JSON object.", field="mapping")
    known = {*_STR_FIELDS, "criteria", "slots", "first", "metadata", "skip_values"}
    for key in data:
        if key not in known:
            raise MappingError(f"unknown setting (known: {', '.join(sorted(known))}).", field=key)
    values: dict[str, Any] = {}
    for key in _STR_FIELDS:
        value = data.get(key, "")
        if not isinstance(value, str):
            raise MappingError("expected a text.", field=key)
        values[key] = value.strip()
    for key in ("slots", "first"):
        value = data.get(key, 0 if key == "slots" else 1)
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise MappingError("expected a whole number.", field=key)
        values[key] = value
    for key in ("metadata", "skip_values"):
        value = data.get(key, [])
        if isinstance(value, str):
            value = [v for v in value.split(",")]
        if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
            raise MappingError("expected a list of texts.", field=key)
        values[key] = tuple(str(v).strip() for v in value if str(v).strip())
    criteria = data.get("criteria")
    if not isinstance(criteria, list) or not criteria:
        raise MappingError(
            "at least one criterion (name and score pattern) is needed.", field="criteria"
        )
    parsed = []
    for n, c in enumerate(criteria):
        where = f"criteria[{n}]"
        if not isinstance(c, MappingType):
            raise MappingError("expected an object with name and score.", field=where)
        for key in c:
            if key not in ("name", "score", "ranks", "scale"):
                raise MappingError("unknown setting.", field=f"{where}.{key}")
        name, score, scale = (str(c.get(k, "")).strip() for k in ("name", "score", "scale"))
        ranks = c.get("ranks", False)
        if not isinstance(ranks, bool):
            raise MappingError("expected true or false.", field=f"{where}.ranks")
        parsed.append(CriterionColumns(name=name, score=score, ranks=ranks, scale=scale))
    mapping = Mapping(criteria=tuple(parsed), **values)
    mapping_check(mapping)
    return mapping


def mapping_check(mapping: Mapping) -> None:
    """The mapping's own rules, before any file is read."""
    if mapping.format not in FORMATS:
        raise MappingError(
            f"'{mapping.format}' is not one of {', '.join(FORMATS)}.", field="format"
        )
    for key in ("item", "system"):
        if not getattr(mapping, key):
            raise MappingError("this column is required.", field=key)
    for key in ("system", "output"):
        pattern = getattr(mapping, key)
        if pattern and "{i}" not in pattern:
            raise MappingError(f"the pattern '{pattern}' lacks {{i}} (the slot number).", field=key)
    per_row = [
        (key, getattr(mapping, key))
        for key in ("item", "worker", "input", "unit", "language", "started_at", "submitted_at")
    ] + [("metadata", column) for column in mapping.metadata]
    for key, column in per_row:
        if "{i}" in column:
            raise MappingError("a per-row column cannot hold {i}.", field=key)
    if mapping.slots != 0 and not MIN_SLOTS <= mapping.slots <= MAX_SLOTS:
        raise MappingError(
            f"{mapping.slots} outputs per row: expected {MIN_SLOTS} to {MAX_SLOTS} (0 = as "
            "many as the header has).",
            field="slots",
        )
    if mapping.first not in (0, 1):
        raise MappingError("slots are numbered from 1 or from 0.", field="first")
    if (mapping.started_at or mapping.submitted_at) and not mapping.time_format:
        raise MappingError(
            f"give the time format: '{TIME_ISO}', '{TIME_EPOCH}' or a strptime pattern.",
            field="time_format",
        )
    names: set[str] = set()
    for n, c in enumerate(mapping.criteria):
        if not _NAME.match(c.name):
            raise MappingError(
                f"'{c.name}' is not a criterion name (lower-case letters, digits, _ and -).",
                field=f"criteria[{n}].name",
            )
        if c.name in names:
            raise MappingError(
                f"criterion '{c.name}' is mapped twice.", field=f"criteria[{n}].name"
            )
        names.add(c.name)
        if "{i}" not in c.score:
            raise MappingError(
                f"the score pattern '{c.score}' lacks {{i}} (the slot number).",
                field=f"criteria[{n}].score",
            )
        if c.scale not in ("", "likert", "magnitude", "slider"):
            raise MappingError(
                f"'{c.scale}' is not a scale (likert, magnitude, slider).",
                field=f"criteria[{n}].scale",
            )


# --------------------------------------------------------------------------------------
# Parsed rows


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
    metadata: dict[str, str] = field(default_factory=dict)
    language: str = ""  # BCP 47 (checked), "" when the mapping has no language column

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


@dataclass(frozen=True)
class ParsedMapped:
    file: str
    slots: int
    rows: list[MappedRow]

    @property
    def judgements(self) -> list[MappedJudgement]:
        return [j for row in self.rows for j in row.judgements]

    @property
    def skipped(self) -> int:
        return sum(len(row.skipped) for row in self.rows)


# --------------------------------------------------------------------------------------
# Reading records


def _lookup(record: Any, path: str) -> tuple[bool, Any]:
    """(found, value) of a dotted path in a JSON object; a key holding the dots wins."""
    if isinstance(record, dict) and path in record:
        return True, record[path]
    value = record
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return False, None
    return True, value


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value).strip()


class _Source:
    """Records of a file as ``(line, get)`` where ``get(column)`` is the cell's text or
    ``None`` when the column is absent; ``columns`` are the header's names (JSONL: the
    keys of the first object)."""

    def __init__(self, path: Path, fmt: str) -> None:
        self.file = str(path)
        self.fmt = fmt
        self._table: CsvTable | None = None
        if fmt == "jsonl":
            self._lines = read_text(path).split("\n")
            self.header_line = 1
            self.columns = []
            for n, text in enumerate(self._lines, start=1):
                if text.strip():
                    self.header_line = n
                    try:
                        first = json.loads(text)
                    except json.JSONDecodeError:
                        first = None  # reported with its line when the records are read
                    self.columns = list(first) if isinstance(first, dict) else []
                    break
            else:
                raise ImportFileError("the file holds no JSON objects.", file=self.file)
        else:
            self._table = CsvTable(path, delimiter="\t" if fmt == "tsv" else ",")
            self.header_line = self._table.header_line
            self.columns = self._table.names

    def has(self, column: str) -> bool:
        return column in self.columns

    def records(self) -> Iterator[tuple[int, Any]]:
        if self._table is not None:
            index = self._table.index
            for line, values in self._table.records():

                def get(column: str, values: list[str] = values) -> str | None:
                    at = index.get(column)
                    return None if at is None else values[at].strip()

                yield line, get
            return
        for n, text in enumerate(self._lines, start=1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ImportFileError(
                    f"not a JSON object ({exc.msg} at character {exc.colno}).",
                    file=self.file,
                    line=n,
                ) from exc
            if not isinstance(record, dict):
                raise ImportFileError("expected a JSON object.", file=self.file, line=n)
            refuse_nul(record, file=self.file, line=n)

            def get_json(column: str, record: dict[str, Any] = record) -> str | None:
                found, value = _lookup(record, column)
                return _text(value) if found else None

            yield n, get_json


# --------------------------------------------------------------------------------------
# Checking the mapping against the header


def _slots(mapping: Mapping, source: _Source) -> int:
    """k: the mapping's, or as many slots as the header has (JSONL: per row, up to 10)."""
    if mapping.slots:
        return mapping.slots
    if source.fmt == "jsonl" and "." in mapping.system:
        return MAX_SLOTS  # nested lists: each row says how many it holds
    k = 0
    while k < MAX_SLOTS and source.has(mapping.column(mapping.system, mapping.first + k)):
        k += 1
    if k < MIN_SLOTS:
        missing = mapping.column(mapping.system, mapping.first + k)
        raise ImportFileError(
            f"the header lacks this column: the mapping's system pattern "
            f"'{mapping.system}' needs at least {MIN_SLOTS} slots.",
            file=source.file,
            line=source.header_line,
            field=missing,
        )
    return k


def required_columns(mapping: Mapping, k: int) -> list[str]:
    """Every column the mapping reads for k slots, in the order the file is checked."""
    columns = [mapping.item]
    for key in ("worker", "input", "unit", "language", "started_at", "submitted_at"):
        if getattr(mapping, key):
            columns.append(getattr(mapping, key))
    columns += list(mapping.metadata)
    for i in range(mapping.first, mapping.first + k):
        columns.append(mapping.column(mapping.system, i))
        if mapping.output:
            columns.append(mapping.column(mapping.output, i))
        columns += [mapping.column(c.score, i) for c in mapping.criteria]
    return columns


def _check_header(mapping: Mapping, source: _Source, k: int) -> None:
    if source.fmt == "jsonl" and (mapping.slots == 0 and "." in mapping.system):
        return  # nested slots: checked row by row
    if source.fmt == "jsonl":
        return  # keys may differ per object: checked row by row
    for column in required_columns(mapping, k):
        if not source.has(column):
            raise ImportFileError(
                "the header lacks this column, which the mapping reads.",
                file=source.file,
                line=source.header_line,
                field=column,
            )


# --------------------------------------------------------------------------------------
# Parsing


def _time(value: str, *, fmt: str, file: str, line: int, field: str) -> datetime:
    try:
        if fmt == TIME_EPOCH:
            moment = datetime.fromtimestamp(float(value), tz=UTC)
        elif fmt == TIME_ISO:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        else:
            moment = datetime.strptime(value, fmt)  # noqa: DTZ007 (made UTC below)
    except (ValueError, OverflowError, OSError) as exc:
        shown = {TIME_EPOCH: "seconds since 1970", TIME_ISO: "ISO 8601"}.get(
            fmt, fmt.replace("%", "")
        )
        raise ImportFileError(
            f"'{value}' is not a time in the form {shown}.", file=file, line=line, field=field
        ) from exc
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _number(raw: str, *, file: str, line: int, field: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ImportFileError(f"'{raw}' is not a number.", file=file, line=line, field=field)
    return value


def _parse_row(
    mapping: Mapping, k: int, line: int, get: Any, file: str, languages: dict[str, str]
) -> MappedRow | None:
    def value(column: str, *, required: bool = True) -> str:
        v = get(column)
        if v is None:
            raise ImportFileError(
                "this column is missing (the mapping reads it).", file=file, line=line, field=column
            )
        if required and not v:
            raise ImportFileError("the value is empty.", file=file, line=line, field=column)
        return v

    item_id = value(mapping.item)
    worker_id = value(mapping.worker) if mapping.worker else AGGREGATE_WORKER
    input_text = value(mapping.input, required=False) if mapping.input else ""
    unit_id = value(mapping.unit) if mapping.unit else ""
    language = (
        row_language(
            value(mapping.language), languages, file=file, line=line, field=mapping.language
        )
        if mapping.language
        else ""
    )
    times: list[datetime | None] = []
    for key in ("started_at", "submitted_at"):
        column = getattr(mapping, key)
        times.append(
            _time(value(column), fmt=mapping.time_format, file=file, line=line, field=column)
            if column
            else None
        )
    started, submitted = times
    if started is None:
        started = submitted
    if submitted is None:
        submitted = started
    if started is not None and submitted is not None and submitted < started:
        raise ImportFileError(
            "the submit time is before the start time.",
            file=file,
            line=line,
            field=mapping.submitted_at,
        )
    metadata = {column: value(column, required=False) for column in mapping.metadata}
    systems: list[str] = []
    texts: list[str] = []
    slot_numbers: list[int] = []
    for i in range(mapping.first, mapping.first + k):
        column = mapping.column(mapping.system, i)
        system = get(column)
        if system is None:
            if mapping.slots == 0 and mapping.format == "jsonl" and len(systems) >= 1:
                break  # nested slots: the row's list ended
            value(column)
        if not system:
            break  # the row's outputs end here (exports pad narrower judgements)
        if system in systems:
            raise ImportFileError(
                f"system '{system}' appears twice in the row.", file=file, line=line, field=column
            )
        systems.append(system)
        texts.append(
            value(mapping.column(mapping.output, i), required=False) if mapping.output else ""
        )
        slot_numbers.append(i)
    if not systems:
        raise ImportFileError(
            "the row has no outputs (the first system cell is empty).",
            file=file,
            line=line,
            field=mapping.column(mapping.system, mapping.first),
        )
    judgements: list[MappedJudgement] = []
    skipped: list[str] = []
    n = len(systems)
    for criterion in mapping.criteria:
        raws = [
            (
                mapping.column(criterion.score, i),
                value(mapping.column(criterion.score, i), required=False),
            )
            for i in slot_numbers
        ]
        if any(raw in mapping.skip_values for _, raw in raws):
            skipped.append(criterion.name)
            continue
        scores: list[float] = []
        ranks: list[float | None] = []
        for column, raw in raws:
            if not raw:
                raise ImportFileError("the value is empty.", file=file, line=line, field=column)
            number = _number(raw, file=file, line=line, field=column)
            if criterion.ranks:
                if not (number.is_integer() and 1 <= number <= n):
                    raise ImportFileError(
                        f"'{raw}' is not a rank from 1 to {n}.", file=file, line=line, field=column
                    )
                scores.append(float(n + 1 - number))
                ranks.append(number)
            else:
                scores.append(number)
                ranks.append(None)
        judgements.append(
            MappedJudgement(
                line=line,
                criterion=criterion.name,
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
    )


def _rows(path: Path, mapping: Mapping, limit: int | None) -> ParsedMapped:
    mapping_check(mapping)
    source = _Source(Path(path), mapping.format)
    if source.fmt != "jsonl":
        _check_header(mapping, source, 0)  # the per-row columns first, then the slots
    k = _slots(mapping, source)
    _check_header(mapping, source, k)
    rows: list[MappedRow] = []
    languages: dict[str, str] = {}
    for line, get in source.records():
        row = _parse_row(mapping, k, line, get, source.file, languages)
        if row is not None:
            rows.append(row)
        if limit is not None and len(rows) >= limit:
            break
    if not rows:
        raise ImportFileError(
            "the file has a header but no judgements.", file=source.file, line=source.header_line
        )
    return ParsedMapped(file=source.file, slots=k, rows=rows)


def parse_mapped(path: Path, mapping: Mapping) -> ParsedMapped:
    """Every row of the file read through ``mapping``, checked.

    Besides the per-cell checks, the same item must show the same input on every row.
    """
    parsed = _rows(path, mapping, None)
    inputs: dict[str, tuple[str, int]] = {}
    for row in parsed.rows:
        known = inputs.setdefault(row.item_id, (row.input, row.line))
        if " ".join(known[0].split()) != " ".join(row.input.split()):
            raise ImportFileError(
                f"item '{row.item_id}' has a different input than on line {known[1]}.",
                file=parsed.file,
                line=row.line,
                field=mapping.input,
            )
    return parsed


def preview_mapped(path: Path, mapping: Mapping, *, rows: int = 5) -> ParsedMapped:
    """The first ``rows`` rows as parsed (errors in them are raised as on import)."""
    return _rows(path, mapping, max(1, rows))


def file_columns(path: Path, fmt: str) -> list[str]:
    """The header's column names (JSONL: the keys of the first object)."""
    return list(_Source(Path(path), fmt).columns)


def header_problems(mapping: Mapping, columns: Sequence[str]) -> list[str]:
    """The columns the mapping reads that ``columns`` lacks (k from the mapping, or the
    largest run of system columns)."""
    have = set(columns)
    k = mapping.slots
    if not k:
        k = 0
        while k < MAX_SLOTS and mapping.column(mapping.system, mapping.first + k) in have:
            k += 1
        k = max(k, MIN_SLOTS)
    return [c for c in required_columns(mapping, k) if c not in have]
