"""Reading automatic metric score files (pure: bytes in, rows out).

Two formats, told apart by the file name (``.jsonl`` / ``.json`` is JSON Lines, anything
else CSV) or by ``fmt``:

* CSV with a header naming the columns ``system``, ``metric``, ``score`` and optionally
  ``item`` (any order, extra columns ignored);
* JSON Lines, one object per line with the keys ``system``, ``metric``, ``score`` and
  optionally ``item``.

A row with an ``item`` is a segment-level score (of that system's output for that item);
without one (column absent or cell empty) a system-level score. Every error names the
file, the line (the CSV header is line 1) and the field; nothing is returned half-read.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass

from common.errors import ImportFileError
from common.jsontext import JsonTextError, json_loads
from common.nul import nul_message, nul_path
from common.tables import csv_reader, header_check, record_check

__all__ = ["MetricRow", "parse_metric_file"]

REQUIRED = ("system", "metric", "score")
MAX_METRIC_NAME = 100


@dataclass(frozen=True)
class MetricRow:
    """One score: ``item`` is None for a system-level score."""

    line: int
    system: str
    item: str | None
    metric: str
    score: float


def _text(data: bytes, file: str) -> str:
    if not data:
        raise ImportFileError("the file is empty (0 bytes).", file=file)
    if b"\x00" in data:
        raise ImportFileError("the file is not UTF-8 text (it holds NUL bytes).", file=file)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportFileError("the file is not UTF-8 text.", file=file, line=line) from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _row(values: dict[str, object], *, file: str, line: int, seen: dict[tuple, int]) -> MetricRow:
    cells: dict[str, str] = {}
    for name in ("system", "metric"):
        value = values.get(name)
        text = "" if value is None else str(value).strip()
        if not text:
            raise ImportFileError(f"'{name}' is empty.", file=file, line=line, field=name)
        cells[name] = text
    if len(cells["metric"]) > MAX_METRIC_NAME:
        raise ImportFileError(
            f"a metric name has at most {MAX_METRIC_NAME} characters.",
            file=file,
            line=line,
            field="metric",
        )
    item_value = values.get("item")
    item = None if item_value is None or str(item_value).strip() == "" else str(item_value).strip()
    raw = values.get("score")
    if isinstance(raw, bool) or raw is None or (isinstance(raw, str) and not raw.strip()):
        raise ImportFileError(
            "'score' is empty or not a number.", file=file, line=line, field="score"
        )
    try:
        score = float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise ImportFileError(
            f"'score' must be a number, not {str(raw)[:40]!r}.", file=file, line=line, field="score"
        ) from exc
    if not math.isfinite(score):
        raise ImportFileError(
            "'score' must be a finite number.", file=file, line=line, field="score"
        )
    key = (cells["metric"], cells["system"], item)
    if key in seen:
        what = f"item '{item}'" if item is not None else "the system as a whole"
        raise ImportFileError(
            f"a second score of metric '{cells['metric']}' for system '{cells['system']}' "
            f"and {what} (the first is on line {seen[key]}).",
            file=file,
            line=line,
            field="score",
        )
    seen[key] = line
    return MetricRow(line, cells["system"], item, cells["metric"], score)


def _csv(text: str, file: str) -> list[MetricRow]:
    reader = csv_reader(text)
    rows: list[MetricRow] = []
    seen: dict[tuple, int] = {}
    header: list[str] | None = None
    end = 0
    while True:
        start = end + 1
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ImportFileError(f"malformed CSV ({exc}).", file=file, line=start) from exc
        end = reader.line_num
        if not "".join(record).strip():
            continue
        if header is None:
            header = [cell.strip().lower() for cell in record]
            header_check(header, file=file, line=start)
            for name in REQUIRED:
                if name not in header:
                    raise ImportFileError(
                        f"the header has no '{name}' column (it needs system, metric, score "
                        "and, for segment-level scores, item).",
                        file=file,
                        line=start,
                        field=name,
                    )
            continue
        if len(record) != len(header):
            raise ImportFileError(
                f"{len(record)} cells where the header has {len(header)}.", file=file, line=start
            )
        record_check(record, header, file=file, line=start)
        rows.append(_row(dict(zip(header, record, strict=True)), file=file, line=start, seen=seen))
    if header is None:
        raise ImportFileError("the file has no header line.", file=file, line=1)
    return rows


def _jsonl(text: str, file: str) -> list[MetricRow]:
    rows: list[MetricRow] = []
    seen: dict[tuple, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json_loads(line)
        except JsonTextError as exc:
            raise ImportFileError(f"not valid JSON ({exc}).", file=file, line=number) from exc
        if not isinstance(value, dict):
            raise ImportFileError("each line must be a JSON object.", file=file, line=number)
        path = nul_path(value)
        if path is not None:
            raise ImportFileError(nul_message("The value"), file=file, line=number, field=path)
        for name in REQUIRED:
            if name not in value:
                raise ImportFileError(
                    f"the object has no '{name}' key.", file=file, line=number, field=name
                )
        rows.append(_row(value, file=file, line=number, seen=seen))
    return rows


def parse_metric_file(data: bytes, *, file: str, fmt: str | None = None) -> list[MetricRow]:
    """The rows of a metric score file.

    ``file`` is the name errors give (the name the user gave, never a server path);
    ``fmt`` is ``"csv"`` or ``"jsonl"`` (default: from the name's extension).
    """
    if fmt is None:
        fmt = "jsonl" if file.lower().endswith((".jsonl", ".json", ".ndjson")) else "csv"
    if fmt not in ("csv", "jsonl"):
        raise ImportFileError(f"unknown format '{fmt}' (csv or jsonl).", file=file)
    text = _text(data, file)
    rows = _jsonl(text, file) if fmt == "jsonl" else _csv(text, file)
    if not rows:
        raise ImportFileError("the file holds no scores.", file=file)
    return rows
