"""Column-mapped rating files: CSV, TSV or JSONL with k outputs per row, read through a
:class:`Mapping` that says which column means what.

A row is one worker's judgement of the k outputs shown for an item, for one or more
criteria. The mapping names the worker id, item id and (optionally) input, unit (task)
id, language (a BCP 47 code per row: the outputs' language), time and metadata columns, and per slot ``i`` the system, output text and, per
criterion, score columns as patterns with ``{i}`` (``team{i}``, ``ref{i}``,
``quality{i}``), numbered from ``first`` (1 or 0). In JSONL a column is a key, or a
dotted path into nested objects and lists (``outputs.{i}.score`` with ``first`` 0).

A file without a system column (one system's outputs) gives the system as a constant,
``"system": {"value": "explainer"}`` (``system_value``), with one output per row.
``slots`` is k (1..10), or 0 for "as many as the header has" (counted from ``first``
while the system column exists). With one output per row (Likert and PlainME exports
of CrowdFlower: ``team``, ``ref``, ``quality``) the patterns may lack ``{i}``: a
pattern without ``{i}`` names one column, and the mapping then has one slot. A row may hold fewer outputs than k: a slot whose
system cell is empty ends the row's outputs (exports pad narrower judgements so). A
score equal to one of ``skip_values`` (e.g. WMT's ``-1``, "not ranked") leaves that
criterion's judgement of the row out; it is counted, not stored. With ``ranks`` a
criterion's values are ranks (1 = best, ties share a rank): the score is
``k + 1 - rank`` so that higher is better, and the rank is kept as given.

A criterion's ``rank`` pattern names columns of ranks kept as given beside the scores
(humaneval's exports: WMT judges may rank all outputs 4th). Its ``checks`` pattern names the columns of its content checks per slot
(the platform's ``added``/``missing``/``perfect``, or RankME's ``check{i}`` answers
``ok``/``missing``/``added``/both, read as ``perfect``/``missing``/``added``/both), its
``coverage`` pattern the coverage labels kept as written (humaneval's ``check{i}``).
A criterion's ``levels`` (whole numbers) are the Likert levels of the criterion when
the import creates it (instead of levels inferred from the scores).
``definition`` names a column holding the criterion's definition as JSON (humaneval's
exports: name, scale, scale settings with the Likert levels, content checks,
question), restored when the criterion is created; a criterion named ``*`` takes the
definition's name. ``metadata_json`` names a column holding a JSON object of metadata
(humaneval's exports), kept with each judgement beside the ``metadata`` columns.

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
from common.jsontext import JsonTextError, json_loads

FORMATS = ("csv", "tsv", "jsonl")
MIN_SLOTS, MAX_SLOTS = 1, 10
#: The mapping's optional one-column-per-row fields (besides ``item``), in the order a
#: file's columns are checked.
PER_ROW_FIELDS: tuple[str, ...] = (
    "worker",
    "input",
    "unit",
    "language",
    "started_at",
    "submitted_at",
    "definition",
    "metadata_json",
)
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
    checks: str = ""  # content checks per slot (pattern)
    coverage: str = ""  # coverage labels per slot, kept as written (pattern)
    rank: str = ""  # ranks per slot kept as given beside the scores (pattern)
    #: the Likert levels (whole numbers) of a criterion the import creates, instead of
    #: levels inferred from the scores
    levels: tuple[int, ...] = ()


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
    definition: str = ""  # a column holding the criterion's definition (JSON)
    metadata_json: str = ""  # a column holding a JSON object of metadata
    #: a CSV/TSV file without a header line: its columns' names, in order
    columns: tuple[str, ...] = ()
    #: the one system of every row when the file has no system column (one output per
    #: row); JSON: ``"system": {"value": "explainer"}`` or ``"system_value"``
    system_value: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; settings that are optional and unset are left out."""
        data = asdict(self)
        for key in ("definition", "metadata_json", "columns", "system_value"):
            if not data[key]:
                del data[key]
        if "columns" in data:
            data["columns"] = list(self.columns)
        data["criteria"] = [
            {
                k: list(v) if k == "levels" else v
                for k, v in asdict(c).items()
                if v or k not in ("checks", "coverage", "rank", "levels")
            }
            for c in self.criteria
        ]
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
    "definition",
    "metadata_json",
    "system_value",
)
#: a criterion named so takes the name its ``definition`` column gives
FROM_DEFINITION = "*"
#: RankME's ``check{i}`` answers -> the platform's content checks
RANKME_CHECKS = {"ok": ("perfect",), "both": ("added", "missing")}
CHECK_KEYS = ("added", "missing", "perfect")


def _levels(value: Any, *, field: str) -> tuple[int, ...]:
    """A criterion's Likert levels: a list of whole numbers (or their comma-separated
    text), sorted."""
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list):
        raise MappingError("expected a list of whole numbers.", field=field)
    levels: set[int] = set()
    for v in value:
        if isinstance(v, str) and re.fullmatch(r"-?\d+", v):
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool):
            raise MappingError(f"'{v}' is not a whole number.", field=field)
        levels.add(v)
    return tuple(sorted(levels))


_CRITERION_KEYS = ("name", "score", "ranks", "scale", "checks", "coverage", "rank", "levels")


def _system_constant(data: MappingType[str, Any]) -> MappingType[str, Any]:
    """``data`` with a constant system (``"system": {"value": "explainer"}``) moved to
    ``system_value``."""
    system = data.get("system", "")
    if not isinstance(system, MappingType):
        return data
    if set(system) != {"value"} or not isinstance(system["value"], str):
        raise MappingError('a constant system is written {"value": "label"}.', field="system")
    if data.get("system_value"):
        raise MappingError("give the constant system once.", field="system_value")
    return {**data, "system": "", "system_value": system["value"]}


def _setting_values(data: MappingType[str, Any]) -> dict[str, Any]:
    """The mapping's settings but its criteria: texts, whole numbers, lists of texts."""
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
    for key in ("metadata", "skip_values", "columns"):
        value = data.get(key, [])
        if isinstance(value, str):
            value = [v for v in value.split(",")]
        if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
            raise MappingError("expected a list of texts.", field=key)
        values[key] = tuple(str(v).strip() for v in value if str(v).strip())
    return values


def _criterion_from_dict(c: Any, where: str) -> CriterionColumns:
    """One criterion of a mapping from its JSON form (``where``: its place, for errors)."""
    if not isinstance(c, MappingType):
        raise MappingError("expected an object with name and score.", field=where)
    for key in c:
        if key not in _CRITERION_KEYS:
            raise MappingError("unknown setting.", field=f"{where}.{key}")
    name, score, scale, checks, coverage, rank = (
        str(c.get(k, "")).strip() for k in ("name", "score", "scale", "checks", "coverage", "rank")
    )
    ranks = c.get("ranks", False)
    if not isinstance(ranks, bool):
        raise MappingError("expected true or false.", field=f"{where}.ranks")
    levels = _levels(c.get("levels", []), field=f"{where}.levels")
    return CriterionColumns(
        name=name,
        score=score,
        ranks=ranks,
        scale=scale,
        checks=checks,
        coverage=coverage,
        rank=rank,
        levels=levels,
    )


def mapping_from_dict(data: MappingType[str, Any]) -> Mapping:
    """A mapping from its JSON form, checked; a wrong setting is a :class:`MappingError`."""
    if not isinstance(data, MappingType):
        raise MappingError("a mapping is a JSON object.", field="mapping")
    known = {*_STR_FIELDS, "criteria", "slots", "first", "metadata", "skip_values", "columns"}
    for key in data:
        if key not in known:
            raise MappingError(f"unknown setting (known: {', '.join(sorted(known))}).", field=key)
    values = _setting_values(_system_constant(data))
    criteria = data.get("criteria")
    if not isinstance(criteria, list) or not criteria:
        raise MappingError(
            "at least one criterion (name and score pattern) is needed.", field="criteria"
        )
    parsed = [_criterion_from_dict(c, f"criteria[{n}]") for n, c in enumerate(criteria)]
    mapping = Mapping(criteria=tuple(parsed), **values)
    mapping_check(mapping)
    return mapping


def mapping_single_slot(mapping: Mapping) -> bool:
    """One output per row: ``slots`` is 1, or the system pattern names one column (no
    ``{i}``) and ``slots`` is 0 or 1, or the system is a constant."""
    return (
        mapping.slots == 1
        or (mapping.slots == 0 and "{i}" not in mapping.system)
        or bool(mapping.system_value)
    )


def _check_system(mapping: Mapping) -> None:
    """The format, the item column, and a system column or a constant system."""
    if mapping.format not in FORMATS:
        raise MappingError(
            f"'{mapping.format}' is not one of {', '.join(FORMATS)}.", field="format"
        )
    if not mapping.item:
        raise MappingError("this column is required.", field="item")
    if not mapping.system and not mapping.system_value:
        raise MappingError(
            'this column is required (or a constant system: {"value": "label"}).',
            field="system",
        )
    if mapping.system and mapping.system_value:
        raise MappingError(
            "either a system column or a constant system, not both.", field="system_value"
        )
    if mapping.system_value and mapping.slots not in (0, 1):
        raise MappingError(
            "a constant system means one output per row: set slots to 1.", field="slots"
        )


def _check_patterns(mapping: Mapping, single: bool) -> None:
    """Per-slot patterns hold ``{i}`` (unless one output per row); per-row columns never."""
    for key in ("system", "output"):
        pattern = getattr(mapping, key)
        if pattern and "{i}" not in pattern and not single:
            raise MappingError(
                f"the pattern '{pattern}' lacks {{i}} (the slot number); without it, set "
                "slots to 1 (one output per row).",
                field=key,
            )
    per_row = [(key, getattr(mapping, key)) for key in ("item", *PER_ROW_FIELDS)] + [
        ("metadata", column) for column in mapping.metadata
    ]
    for key, column in per_row:
        if "{i}" in column:
            raise MappingError("a per-row column cannot hold {i}.", field=key)


def _check_layout(mapping: Mapping) -> None:
    """The number of slots, the columns of a file without a header, the first slot's
    number, and a time format when times are read."""
    if mapping.slots != 0 and not MIN_SLOTS <= mapping.slots <= MAX_SLOTS:
        raise MappingError(
            f"{mapping.slots} outputs per row: expected {MIN_SLOTS} to {MAX_SLOTS} (0 = as "
            "many as the header has).",
            field="slots",
        )
    if mapping.columns and mapping.format == "jsonl":
        raise MappingError("a JSONL file names its keys itself.", field="columns")
    if len(set(mapping.columns)) < len(mapping.columns):
        raise MappingError("a column is named twice.", field="columns")
    if mapping.first not in (0, 1):
        raise MappingError("slots are numbered from 1 or from 0.", field="first")
    if (mapping.started_at or mapping.submitted_at) and not mapping.time_format:
        raise MappingError(
            f"give the time format: '{TIME_ISO}', '{TIME_EPOCH}' or a strptime pattern.",
            field="time_format",
        )


def _check_criterion_name(mapping: Mapping, c: CriterionColumns, where: str) -> None:
    """A criterion's name: a name, or ``*`` (the file's definition gives it)."""
    if c.name == FROM_DEFINITION:
        if not mapping.definition or len(mapping.criteria) != 1:
            raise MappingError(
                f"'{FROM_DEFINITION}' (the name the file gives) needs the 'definition' "
                "column and a single criterion.",
                field=f"{where}.name",
            )
    elif not _NAME.match(c.name):
        raise MappingError(
            f"'{c.name}' is not a criterion name (lower-case letters, digits, _ and -).",
            field=f"{where}.name",
        )


def _check_criterion(c: CriterionColumns, where: str, single: bool) -> None:
    """A criterion's columns and scale (its name is ``_check_criterion_name``'s)."""
    if not c.score:
        raise MappingError("give the score column.", field=f"{where}.score")
    if "{i}" not in c.score and not single:
        raise MappingError(
            f"the score pattern '{c.score}' lacks {{i}} (the slot number); without it, "
            "set slots to 1 (one output per row).",
            field=f"{where}.score",
        )
    if c.rank and c.ranks:
        raise MappingError(
            "either the scores are ranks (ranks) or the ranks have a column (rank).",
            field=f"{where}.rank",
        )
    for key in ("checks", "coverage", "rank"):
        pattern = getattr(c, key)
        if pattern and "{i}" not in pattern and not single:
            raise MappingError(
                f"the pattern '{pattern}' lacks {{i}} (the slot number).",
                field=f"{where}.{key}",
            )
    if c.scale not in ("", "likert", "magnitude", "slider"):
        raise MappingError(
            f"'{c.scale}' is not a scale (likert, magnitude, slider).",
            field=f"{where}.scale",
        )
    if c.levels and (c.scale not in ("", "likert") or c.ranks or len(c.levels) < 2):
        raise MappingError(
            "levels are those of a Likert scale: at least two whole numbers.",
            field=f"{where}.levels",
        )


def mapping_check(mapping: Mapping) -> None:
    """The mapping's own rules, before any file is read."""
    _check_system(mapping)
    single = mapping_single_slot(mapping)
    _check_patterns(mapping, single)
    _check_layout(mapping)
    names: set[str] = set()
    for n, c in enumerate(mapping.criteria):
        where = f"criteria[{n}]"
        _check_criterion_name(mapping, c, where)
        if c.name in names:
            raise MappingError(f"criterion '{c.name}' is mapped twice.", field=f"{where}.name")
        names.add(c.name)
        _check_criterion(c, where, single)


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


@dataclass(frozen=True)
class ParsedMapped:
    file: str
    slots: int
    rows: list[MappedRow]
    #: criterion name -> its definition as the file gives it (``definition`` column)
    definitions: dict[str, dict[str, Any]] = field(default_factory=dict)

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

    def __init__(self, path: Path, fmt: str, names: Sequence[str] = ()) -> None:
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
                        first = json_loads(text)
                    except JsonTextError:
                        first = None  # reported with its line when the records are read
                    self.columns = list(first) if isinstance(first, dict) else []
                    break
            else:
                raise ImportFileError("the file holds no JSON objects.", file=self.file)
        else:
            self._table = CsvTable(
                path, delimiter="\t" if fmt == "tsv" else ",", names=list(names) or None
            )
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
                record = json_loads(text)
            except JsonTextError as exc:
                raise ImportFileError(
                    f"not a JSON object ({exc}).", file=self.file, line=n
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
    """k: the mapping's, or as many slots as the header has (JSONL: per row, up to 10).

    A header without the first system column gives 1: the header check then names it
    with every other column the file lacks."""
    if mapping.slots:
        return mapping.slots
    if mapping.system_value or "{i}" not in mapping.system:
        return 1
    if source.fmt == "jsonl" and "." in mapping.system:
        return MAX_SLOTS  # nested lists: each row says how many it holds
    k = 0
    while k < MAX_SLOTS and source.has(mapping.column(mapping.system, mapping.first + k)):
        k += 1
    return max(k, MIN_SLOTS)


def required_columns(mapping: Mapping, k: int) -> list[str]:
    """Every column the mapping reads for k slots, in the order the file is checked."""
    columns = [mapping.item]
    for key in PER_ROW_FIELDS:
        if getattr(mapping, key):
            columns.append(getattr(mapping, key))
    columns += list(mapping.metadata)
    for i in range(mapping.first, mapping.first + k):
        if mapping.system:
            columns.append(mapping.column(mapping.system, i))
        if mapping.output:
            columns.append(mapping.column(mapping.output, i))
        for c in mapping.criteria:
            patterns = (c.score, c.checks, c.coverage, c.rank)
            columns += [mapping.column(p, i) for p in patterns if p]
    return list(dict.fromkeys(columns))


def _check_header(mapping: Mapping, source: _Source, k: int) -> None:
    """Every column the mapping reads that the header lacks, named at once (the first
    is the error's field)."""
    if source.fmt == "jsonl":
        return  # keys may differ per object (and nested slots): checked row by row
    missing = list(dict.fromkeys(c for c in required_columns(mapping, k) if not source.has(c)))
    if missing:
        many = len(missing) > 1
        raise ImportFileError(
            f"the header lacks {'these columns' if many else 'this column'}, which the "
            f"mapping reads: {', '.join(missing)}.",
            file=source.file,
            line=source.header_line,
            field=missing[0],
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


def _json_cell(raw: str, *, file: str, line: int, field: str) -> dict[str, Any]:
    try:
        value = json_loads(raw)
    except JsonTextError as exc:
        raise ImportFileError(
            f"not a JSON object ({exc}).",
            file=file,
            line=line,
            field=field,
        ) from exc
    if not isinstance(value, dict):
        raise ImportFileError("expected a JSON object.", file=file, line=line, field=field)
    return value


def _definition(raw: str, *, file: str, line: int, field: str) -> dict[str, Any]:
    """A criterion's definition as humaneval's exports write it, checked."""
    value = _json_cell(raw, file=file, line=line, field=field)
    name = value.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ImportFileError(
            f"the definition's name '{name}' is not a criterion name.",
            file=file,
            line=line,
            field=field,
        )
    if value.get("scale") not in ("likert", "magnitude", "slider"):
        raise ImportFileError(
            f"the definition's scale '{value.get('scale')}' is not likert, magnitude or slider.",
            file=file,
            line=line,
            field=field,
        )
    settings = value.get("scale_settings", {})
    checks = value.get("content_checks", [])
    if not isinstance(settings, dict) or not isinstance(checks, list):
        raise ImportFileError(
            "scale_settings is an object and content_checks a list.",
            file=file,
            line=line,
            field=field,
        )
    if value["scale"] == "likert":
        levels = settings.get("levels")
        if not isinstance(levels, list) or not levels:
            raise ImportFileError(
                "a Likert definition lists its levels (scale_settings.levels).",
                file=file,
                line=line,
                field=field,
            )
    unknown = [c for c in checks if c not in CHECK_KEYS]
    if unknown:
        raise ImportFileError(
            f"'{unknown[0]}' is not a content check ({', '.join(CHECK_KEYS)}).",
            file=file,
            line=line,
            field=field,
        )
    return value


def _checks(raw: str, *, file: str, line: int, field: str) -> tuple[str, ...]:
    """Content checks ticked for one output: the platform's keys (``;``, ``,`` or line
    separated, or a JSON list) or RankME's answers (``ok`` = perfect, ``both``)."""
    text = raw.strip()
    if text.startswith("["):
        try:
            listed = json_loads(text)
        except JsonTextError:
            listed = None
        if not isinstance(listed, list):
            raise ImportFileError(
                f"'{text[:40]}' is not a list of content checks.", file=file, line=line, field=field
            )
        words = [str(v).strip().lower() for v in listed]
    else:
        words = [w.strip().lower() for w in re.split(r"[;,\n]", text) if w.strip()]
    keys: set[str] = set()
    for word in words:
        found = RANKME_CHECKS.get(word, (word,))
        if not set(found) <= set(CHECK_KEYS):
            raise ImportFileError(
                f"'{word}' is not a content check ({', '.join(CHECK_KEYS)}; or RankME's "
                "ok, missing, added, both).",
                file=file,
                line=line,
                field=field,
            )
        keys.update(found)
    return tuple(key for key in CHECK_KEYS if key in keys)


class _Cells:
    """One record's cells, read by column, with errors naming the file, line and column.

    ``value(column, required=True)``: the cell's text; a missing column, or an empty
    cell that is required, is an error. (A plain function, not a method: a parse calls
    it for every cell, and a plain function with defaults is the cheaper call.)
    """

    __slots__ = ("file", "get", "line", "value")

    def __init__(self, get: Any, *, file: str, line: int) -> None:
        self.get, self.file, self.line = get, file, line

        def value(column: str, *, required: bool = True) -> str:
            v = get(column)
            if v is None:
                raise ImportFileError(
                    "this column is missing (the mapping reads it).",
                    file=file,
                    line=line,
                    field=column,
                )
            if required and not v:
                raise ImportFileError("the value is empty.", file=file, line=line, field=column)
            return v

        self.value = value

    def error(self, message: str, column: str) -> ImportFileError:
        return ImportFileError(message, file=self.file, line=self.line, field=column)


def _row_times(cells: _Cells, mapping: Mapping) -> tuple[datetime | None, datetime | None]:
    """When the judgement started and was submitted; one of them stands for both when the
    mapping reads only one."""
    times: list[datetime | None] = []
    for key in ("started_at", "submitted_at"):
        column = getattr(mapping, key)
        times.append(
            _time(
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


def _row_metadata(cells: _Cells, mapping: Mapping) -> dict[str, Any]:
    """The JSON metadata cell's object, then the metadata columns."""
    metadata: dict[str, Any] = {}
    if mapping.metadata_json:
        raw = cells.value(mapping.metadata_json, required=False)
        if raw:
            metadata.update(
                _json_cell(raw, file=cells.file, line=cells.line, field=mapping.metadata_json)
            )
    metadata.update({column: cells.value(column, required=False) for column in mapping.metadata})
    return metadata


def _row_definition(cells: _Cells, mapping: Mapping) -> dict[str, Any] | None:
    """The row's criterion definition (None: the mapping reads none, or the cell is empty)."""
    if not mapping.definition:
        return None
    raw = cells.value(mapping.definition, required=False)
    if not raw:
        return None
    return _definition(raw, file=cells.file, line=cells.line, field=mapping.definition)


def _row_outputs(cells: _Cells, mapping: Mapping, k: int) -> tuple[list[str], list[str], list[int]]:
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
            break  # the row's outputs end here (exports pad narrower judgements)
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


def _criterion_name(
    cells: _Cells,
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
    cells: _Cells, criterion: CriterionColumns, raws: list[tuple[str, str]], n: int
) -> tuple[list[float], list[float | None]]:
    """The scores of the row's ``n`` outputs, and their ranks when the scores are ranks
    (a rank r becomes the score n + 1 - r)."""
    scores: list[float] = []
    ranks: list[float | None] = []
    for column, raw in raws:
        if not raw:
            raise cells.error("the value is empty.", column)
        number = _number(raw, file=cells.file, line=cells.line, field=column)
        if criterion.ranks:
            if not (number.is_integer() and 1 <= number <= n):
                raise cells.error(f"'{raw}' is not a rank from 1 to {n}.", column)
            scores.append(float(n + 1 - number))
            ranks.append(number)
        else:
            scores.append(number)
            ranks.append(None)
    return scores, ranks


def _rank_column(
    cells: _Cells, mapping: Mapping, criterion: CriterionColumns, slot_numbers: list[int]
) -> list[float | None]:
    """The ranks of the criterion's rank columns (kept as given beside the scores)."""
    ranks: list[float | None] = []
    for i in slot_numbers:
        column = mapping.column(criterion.rank, i)
        raw = cells.value(column)
        rank = _number(raw, file=cells.file, line=cells.line, field=column)
        if not (rank.is_integer() and rank >= 1):
            raise cells.error(f"'{raw}' is not a rank (1 = best).", column)
        ranks.append(rank)
    return ranks


def _slot_extras(
    cells: _Cells, mapping: Mapping, criterion: CriterionColumns, slot_numbers: list[int]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The criterion's content checks and coverage labels per slot (() when not mapped)."""
    checks: tuple[tuple[str, ...], ...] = ()
    if criterion.checks:
        checks = tuple(
            _checks(
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


def _parse_row(
    mapping: Mapping,
    k: int,
    line: int,
    get: Any,
    file: str,
    languages: dict[str, str],
    definitions: dict[str, tuple[dict[str, Any], int]] | None = None,
) -> MappedRow | None:
    cells = _Cells(get, file=file, line=line)
    value = cells.value
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
    )


def _rows(path: Path, mapping: Mapping, limit: int | None) -> ParsedMapped:
    mapping_check(mapping)
    source = _Source(Path(path), mapping.format, mapping.columns)
    k = _slots(mapping, source)
    _check_header(mapping, source, k)
    rows: list[MappedRow] = []
    languages: dict[str, str] = {}
    definitions: dict[str, tuple[dict[str, Any], int]] = {}
    for line, get in source.records():
        row = _parse_row(mapping, k, line, get, source.file, languages, definitions)
        if row is not None:
            rows.append(row)
        if limit is not None and len(rows) >= limit:
            break
    if not rows:
        raise ImportFileError(
            "the file has a header but no judgements.", file=source.file, line=source.header_line
        )
    return ParsedMapped(
        file=source.file,
        slots=k,
        rows=rows,
        definitions={name: d for name, (d, _) in definitions.items()},
    )


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
    k = mapping.slots or (1 if mapping.system_value or "{i}" not in mapping.system else 0)
    if not k:
        k = 0
        while k < MAX_SLOTS and mapping.column(mapping.system, mapping.first + k) in have:
            k += 1
        k = max(k, MIN_SLOTS)
    return [c for c in required_columns(mapping, k) if c not in have]
