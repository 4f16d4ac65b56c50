"""Raw E2E RankME rating exports (CrowdFlower): ``quality.csv`` and ``naturalness.csv``.

One row is one judgement of the five outputs of a unit (``_unit_id``): the systems
``sys1..5``, the texts shown ``ref1..5``, the magnitude-estimation scores
``quality1..5`` or ``natur1..5``, for quality the MR-coverage labels ``check1..5``, and
``dupl_ref1..5`` naming the slots (1-based digits, e.g. ``35.0``) whose text is a
duplicate of this slot's. Times are ``MM/DD/YYYY HH:MM:SS`` in UTC.

The worker's ``_country`` (and any location or IP column) is never read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from annotations.core.outputs import system_label
from annotations.core.scoring import score_refusal
from annotations.importing.parsers.common import CsvTable, parse_utc
from common.errors import ImportFileError

TIME_FORMAT = "%m/%d/%Y %H:%M:%S"
SLOTS = 5
# Score column prefix of each criterion (the criterion is recognised by its columns).
SCORE_PREFIXES = {"quality": "quality", "naturalness": "natur"}
# Coverage labels: a worker may tick both "added" and "missing" (exported as two lines).
COVERAGE_LABELS = {"ok", "missing", "added"}
BASE_COLUMNS = (
    "_unit_id",
    "_id",
    "_worker_id",
    "_started_at",
    "_created_at",
    "mr",
    "mr_id",
)
WORKER_METADATA_COLUMNS = ("_trust", "_channel", "_tainted")


@dataclass(frozen=True)
class ImportedJudgement:
    """One row of a rating export, checked and typed."""

    line: int
    unit_id: str
    judgement_id: str
    worker_id: str
    worker_metadata: dict[str, object]
    mr: str
    mr_id: int
    systems: tuple[str, ...]
    texts: tuple[str, ...]
    scores: tuple[float, ...]
    coverage: tuple[str, ...]
    twins: tuple[tuple[int, ...], ...]
    started_at: datetime
    submitted_at: datetime


@dataclass(frozen=True)
class ParsedRatings:
    file: str
    criterion: str
    judgements: list[ImportedJudgement]


def _coverage(value: str) -> str:
    labels = {v.strip().lower() for v in value.replace(",", "\n").split("\n") if v.strip()}
    if not labels or not labels <= COVERAGE_LABELS:
        raise ValueError(value)
    if {"added", "missing"} <= labels:
        return "both"
    if len(labels) > 1:
        raise ValueError(value)
    return labels.pop()


def _metadata_value(column: str, value: str) -> object:
    value = value.strip()
    if column == "_trust":
        try:
            return float(value)
        except ValueError:
            return value
    if column == "_tainted":
        return {"true": True, "false": False}.get(value.lower(), value)
    return value


class _Row:
    """One record of the file, read by column name: ``value(column, required=True)``, the
    cell stripped (an empty one that is required is an error). A plain function, not a
    method: every cell is read through it, and a plain function is the cheaper call."""

    __slots__ = ("file", "index", "line", "record", "value")

    def __init__(self, *, file: str, line: int, record: list[str], index: dict[str, int]) -> None:
        self.file, self.line, self.record, self.index = file, line, record, index

        def value(column: str, *, required: bool = True) -> str:
            v = record[index[column]].strip()
            if required and not v:
                raise ImportFileError("the value is empty.", file=file, line=line, field=column)
            return v

        self.value = value

    def error(self, message: str, column: str) -> ImportFileError:
        return ImportFileError(message, file=self.file, line=self.line, field=column)


def _criterion_of(table: CsvTable) -> tuple[str, str]:
    """The criterion the file rates, recognised by its score columns, and their prefix;
    every column read is required."""
    criterion = next(
        (c for c, prefix in SCORE_PREFIXES.items() if f"{prefix}1" in table.names), None
    )
    if criterion is None:
        raise ImportFileError(
            "no score columns: expected quality1..quality5 or natur1..natur5.",
            file=table.file,
            line=table.header_line,
            field="quality1",
        )
    prefix = SCORE_PREFIXES[criterion]
    required = list(BASE_COLUMNS)
    for k in range(1, SLOTS + 1):
        required += [f"sys{k}", f"ref{k}", f"{prefix}{k}", f"dupl_ref{k}"]
        if criterion == "quality":
            required.append(f"check{k}")
    table.require(required)
    return criterion, prefix


def _mr_id(row: _Row) -> int:
    try:
        mr_id = int(row.value("mr_id"))
    except ValueError:
        mr_id = 0
    if mr_id < 1:
        raise row.error(f"'{row.value('mr_id')}' is not a positive whole number.", "mr_id")
    return mr_id


def _times(row: _Row) -> tuple[datetime, datetime]:
    """When the judgement started and was submitted (not before it started)."""
    file, line = row.file, row.line
    started = parse_utc(
        row.value("_started_at"), fmt=TIME_FORMAT, file=file, line=line, field="_started_at"
    )
    submitted = parse_utc(
        row.value("_created_at"), fmt=TIME_FORMAT, file=file, line=line, field="_created_at"
    )
    if submitted < started:
        raise row.error("the submit time is before the start time (_started_at).", "_created_at")
    return started, submitted


def _score(row: _Row, column: str) -> float:
    raw = row.value(column)
    try:
        score = float(raw)
    except ValueError:
        score = math.nan
    if not math.isfinite(score):
        raise row.error(f"'{raw}' is not a number.", column)
    refusal = score_refusal(raw, score)
    if refusal:
        raise row.error(refusal, column)
    return score


def _slot_coverage(row: _Row, k: int) -> str:
    raw = row.value(f"check{k}")
    try:
        return _coverage(raw)
    except ValueError:
        raise row.error(
            f"'{raw}' is not a coverage label (ok, missing, added).", f"check{k}"
        ) from None


def _slot_twins(row: _Row, k: int) -> tuple[int, ...]:
    """The (0-based) other slots whose text duplicates slot ``k``'s."""
    raw = row.value(f"dupl_ref{k}", required=False)
    try:
        digits = str(int(float(raw))) if raw else ""
    except ValueError:
        digits = "x"
    if not all(d in "12345" and int(d) != k for d in digits):
        raise row.error(f"'{raw}' does not name other slots 1..5.", f"dupl_ref{k}")
    return tuple(int(d) - 1 for d in digits)


def _unit_refuse_other(first: ImportedJudgement, judgement: ImportedJudgement, row: _Row) -> None:
    """A later judgement of a unit must show what its first showed (MR, systems, texts)."""
    for attr, column in (("mr_id", "mr_id"), ("systems", "sys"), ("texts", "ref")):
        if getattr(first, attr) != getattr(judgement, attr):
            field = column
            if attr != "mr_id":
                k = next(
                    i
                    for i, (a, b) in enumerate(
                        zip(getattr(first, attr), getattr(judgement, attr), strict=True)
                    )
                    if a != b
                )
                field = f"{column}{k + 1}"
            raise row.error(
                f"unit {judgement.unit_id} showed something else on line {first.line}.", field
            )


def _judgement(row: _Row, *, criterion: str, prefix: str, judgement_id: str) -> ImportedJudgement:
    """The row's judgement, every value checked."""
    mr_id = _mr_id(row)
    started, submitted = _times(row)
    systems, texts, scores, coverage, twins = [], [], [], [], []
    for k in range(1, SLOTS + 1):
        systems.append(system_label(row.value(f"sys{k}")))
        texts.append(row.value(f"ref{k}"))
        scores.append(_score(row, f"{prefix}{k}"))
        coverage.append(_slot_coverage(row, k) if criterion == "quality" else "")
        twins.append(_slot_twins(row, k))
    for k, system in enumerate(systems, start=1):
        if systems.index(system) != k - 1:
            raise row.error(f"system '{system}' appears twice in the row.", f"sys{k}")
    return ImportedJudgement(
        line=row.line,
        unit_id=row.value("_unit_id"),
        judgement_id=judgement_id,
        worker_id=row.value("_worker_id"),
        worker_metadata={
            c: _metadata_value(c, row.value(c, required=False))
            for c in WORKER_METADATA_COLUMNS
            if c in row.index
        },
        mr=row.value("mr"),
        mr_id=mr_id,
        systems=tuple(systems),
        texts=tuple(texts),
        scores=tuple(scores),
        coverage=tuple(coverage),
        twins=tuple(twins),
        started_at=started,
        submitted_at=submitted,
    )


def parse_e2e_ratings(path: Path) -> ParsedRatings:
    table = CsvTable(path)
    file, header_line = table.file, table.header_line
    criterion, prefix = _criterion_of(table)
    judgements: list[ImportedJudgement] = []
    seen_ids: dict[str, int] = {}
    units: dict[str, ImportedJudgement] = {}
    for line, record in table.records():
        row = _Row(file=file, line=line, record=record, index=table.index)
        judgement_id = row.value("_id")
        if judgement_id in seen_ids:
            raise row.error(
                f"the judgement id {judgement_id} already appears on line {seen_ids[judgement_id]}.",
                "_id",
            )
        seen_ids[judgement_id] = line
        judgement = _judgement(row, criterion=criterion, prefix=prefix, judgement_id=judgement_id)
        first = units.setdefault(judgement.unit_id, judgement)
        if first is not judgement:
            _unit_refuse_other(first, judgement, row)
        judgements.append(judgement)
    if not judgements:
        raise ImportFileError(
            "the file has a header but no judgements.", file=file, line=header_line
        )
    return ParsedRatings(file=file, criterion=criterion, judgements=judgements)
