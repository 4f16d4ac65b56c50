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
``one_value`` lists columns that, where the file has them, must hold one value on every
row (the ``wmt`` preset's ``srclang`` and ``trglang``: one language pair a file).
``skip_rows`` leaves out (and counts) the rows whose column holds one of the values it
gives (the ``mturk`` preset: ``AssignmentStatus`` ``Rejected``, work the requester refused).
``aliases`` gives a column's other names, read where the file lacks the mapped one (the
``wmt`` preset reads ``judgeID``, as WMT15-16 and xml2csv write it, for ``judgeId``).

Pure: no Django. Errors are :class:`ImportFileError` naming the file, the line (the
header is line 1) and the field (the column or key).

Here: the parse of a whole file (or its first rows) into a :class:`ParsedMapped`. The
steps, one module each: ``mapping`` (the :class:`Mapping` and its own rules),
``source`` (reading CSV, TSV or JSONL records), ``header`` (the mapping against the
file's header), ``cells`` (a cell's value, checked) and ``rows`` (a row's outputs and
judgements).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from annotations.core.languages import LanguageError, language_from_code_or_name
from annotations.importing.parsers.mapped.header import header_check, skip_rows_absent, slots_of
from annotations.importing.parsers.mapped.mapping import Mapping, mapping_check
from annotations.importing.parsers.mapped.rows import MappedJudgement, MappedRow, parse_row
from annotations.importing.parsers.mapped.source import Source
from common.errors import ImportFileError


@dataclass(frozen=True)
class ParsedMapped:
    """A file read through a mapping: its rows, k (the outputs a row may hold) and the
    criteria's definitions it gives."""

    file: str
    slots: int
    rows: list[MappedRow]
    #: criterion name -> its definition as the file gives it (``definition`` column)
    definitions: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: criterion name -> the line that first gives its definition
    definition_lines: dict[str, int] = field(default_factory=dict)
    #: rows the mapping's ``skip_rows`` left out, by column and value
    #: (``{"AssignmentStatus": {"Rejected": 3}}``)
    left_out: dict[str, dict[str, int]] = field(default_factory=dict)
    #: the columns ``skip_rows`` reads that the file lacks (they left nothing out)
    skip_rows_absent: tuple[str, ...] = ()

    @property
    def judgements(self) -> list[MappedJudgement]:
        return [j for row in self.rows for j in row.judgements]

    @property
    def skipped(self) -> int:
        return sum(len(row.skipped) for row in self.rows)


def _rows(path: Path, mapping: Mapping, limit: int | None) -> ParsedMapped:
    mapping_check(mapping)
    source = Source(
        Path(path), mapping.format, mapping.columns, formula_quoted=mapping.formula_quoted
    )
    source.read_aliases(mapping.aliases)
    k = slots_of(mapping, source)
    header_check(mapping, source, k)
    absent = skip_rows_absent(mapping, source)
    rows: list[MappedRow] = []
    languages: dict[str, str] = {}
    definitions: dict[str, tuple[dict[str, Any], int]] = {}
    first_values: dict[str, tuple[str, int]] = {}
    left_out: dict[str, dict[str, int]] = {}
    for line, get in source.records():
        why = _left_out(mapping, get)
        if why is not None:
            counts = left_out.setdefault(why[0], {})
            counts[why[1]] = counts.get(why[1], 0) + 1
            continue
        _one_value(mapping, get, line, source.file, first_values)
        row = parse_row(mapping, k, line, get, source.file, languages, definitions)
        if row is not None:
            rows.append(row)
        if limit is not None and len(rows) >= limit:
            break
    if not rows:
        skipped = "; ".join(left_out_sentences(left_out))
        raise ImportFileError(
            "the file has a header but no judgements"
            + (f" (the mapping's skip_rows left out {skipped})." if skipped else "."),
            file=source.file,
            line=source.header_line,
        )
    if not mapping.slots and source.fmt == "jsonl" and "." in mapping.system:
        k = max(len(row.systems) for row in rows)  # nested lists: the most a row holds
    return ParsedMapped(
        file=source.file,
        slots=k,
        rows=rows,
        definitions={name: d for name, (d, _) in definitions.items()},
        definition_lines={name: line for name, (_, line) in definitions.items()},
        left_out=left_out,
        skip_rows_absent=tuple(absent),
    )


def _left_out(mapping: Mapping, get: Any) -> tuple[str, str] | None:
    """The column and value for which the mapping's ``skip_rows`` leave this row out."""
    for column, values in mapping.skip_rows:
        value = get(column)
        if value is not None and value.strip() in values:
            return column, value.strip()
    return None


def left_out_sentences(left_out: dict[str, dict[str, int]]) -> list[str]:
    """The rows ``skip_rows`` left out, a clause per column: "3 rows where
    AssignmentStatus is Rejected or Pending"."""
    clauses = []
    for column, counts in left_out.items():
        n = sum(counts.values())
        values = list(counts)
        said = values[0] if len(values) == 1 else f"{', '.join(values[:-1])} or {values[-1]}"
        clauses.append(f"{n} row{'s' if n != 1 else ''} where {column} is {said}")
    return clauses


def _one_value(
    mapping: Mapping, get: Any, line: int, file: str, first: dict[str, tuple[str, int]]
) -> None:
    """Refuse a row whose ``one_value`` column differs from the first row's (a WMT file of
    two language pairs: German and Czech segment 1 became one item, and their systems
    one system, ranked in one table). A language written two ways (``de``, ``German``,
    ``deu``) is one value."""
    for column in mapping.one_value:
        value = get(column)
        if value is None:
            continue  # the file has no such column
        seen, where = first.setdefault(column, (str(value), line))
        if _one_value_key(str(value)) != _one_value_key(seen):
            raise ImportFileError(
                f"the file holds more than one {column}: '{seen[:40]}' on line {where}, "
                f"'{str(value)[:40]}' here. Import each into a campaign of its own, so that "
                "no ranking mixes them.",
                file=file,
                line=line,
                field=column,
            )


@lru_cache(maxsize=256)  # a file repeats its few values on every row
def _one_value_key(value: str) -> str:
    """What ``one_value`` compares: a language's tag where the value reads as a language
    (a code or an English name, :func:`language_from_code_or_name`), else the value."""
    try:
        tag = language_from_code_or_name(value)
    except LanguageError:
        return value.strip()
    return f"language:{tag}" if tag else value.strip()


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
