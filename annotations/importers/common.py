"""Helpers every parser shares: decoding, line ends, CSV records with their line numbers."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from dataclasses import field as dc_field
from datetime import UTC, datetime
from pathlib import Path

from annotations.errors import ImportFileError
from annotations.services.campaigns import OutputRow

_LINE_END = re.compile(r"\r+\n?")


def read_text(path: Path) -> str:
    """The file decoded as UTF-8 (a byte-order mark is dropped) with ``\\n`` line ends.

    Released files mix LF, CRLF and even CR CR LF line ends; every run of CRs with an
    optional LF counts as one line end, so line numbers match what an editor shows.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImportFileError(f"cannot read the file ({exc.strerror}).", file=str(path)) from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportFileError("the file is not UTF-8 text.", file=str(path), line=line) from exc
    return _LINE_END.sub("\n", text)


def csv_records(path: Path, *, delimiter: str = ",") -> Iterator[tuple[int, list[str]]]:
    """Each record of a CSV/TSV file with the line it starts on (1-based).

    Quoted fields may span lines; blank lines are skipped.
    """
    text = read_text(path)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    end = 0
    while True:
        start = end + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise ImportFileError(
                f"malformed {'TSV' if delimiter == chr(9) else 'CSV'} ({exc}).",
                file=str(path),
                line=start,
            ) from exc
        end = reader.line_num
        if not row or all(not cell.strip() for cell in row):
            continue
        yield start, row


class CsvTable:
    """A CSV file with a header line: its column names, and its records checked against them.

    An empty file, a missing column and a record with another number of columns than the
    header are errors naming the file, the line and the field.
    """

    def __init__(self, path: Path) -> None:
        self.file = str(path)
        self._records = csv_records(path)
        try:
            self.header_line, header = next(self._records)
        except StopIteration:
            raise ImportFileError(
                "the file is empty (a header line is expected).", file=self.file
            ) from None
        self.names = [h.strip() for h in header]
        self.index = {name: i for i, name in enumerate(self.names)}

    def require(self, columns: Iterable[str], *, hint: str = "") -> None:
        for column in columns:
            if column not in self.index:
                raise ImportFileError(
                    f"the header lacks this column{hint}.",
                    file=self.file,
                    line=self.header_line,
                    field=column,
                )

    def records(self) -> Iterator[tuple[int, list[str]]]:
        """(line, values) of every record after the header."""
        width = len(self.names)
        for line, record in self._records:
            if len(record) != width:
                raise ImportFileError(
                    f"expected {width} columns as in the header, found {len(record)}.",
                    file=self.file,
                    line=line,
                    field=self.names[len(record)] if len(record) < width else f"column {width + 1}",
                )
            yield line, record


def parse_utc(value: str, *, fmt: str, file: str, line: int, field: str) -> datetime:
    """A timestamp in ``fmt`` read as UTC."""
    try:
        return datetime.strptime(value.strip(), fmt).replace(tzinfo=UTC)
    except ValueError as exc:
        raise ImportFileError(
            f"'{value}' is not a time in the form {fmt.replace('%', '')}.",
            file=file,
            line=line,
            field=field,
        ) from exc


def collapse_whitespace(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class ParsedOutputs:
    """Outputs read from a file or folder; ``where[i]`` is the (file, line) of ``rows[i]``.

    ``field_names`` maps the logical fields (item_id, input, system, output) to the
    column or key name the format uses, so later checks can name the field.
    """

    rows: list[OutputRow]
    where: list[tuple[str, int]]
    field_names: dict[str, str] = dc_field(
        default_factory=lambda: {f: f for f in ("item_id", "input", "system", "output")}
    )


def outputs_check_consistent(parsed: ParsedOutputs) -> None:
    """No (item, system) twice, and one input per item."""
    seen: dict[tuple[str, str], tuple[str, int]] = {}
    inputs: dict[str, tuple[str, tuple[str, int]]] = {}
    names = parsed.field_names
    for row, (file, line) in zip(parsed.rows, parsed.where, strict=True):
        key = (row.item_id, row.system)
        if key in seen:
            first_file, first_line = seen[key]
            raise ImportFileError(
                f"system '{row.system}' has a second output for item '{row.item_id}' "
                f"(the first is on line {first_line} of {first_file}).",
                file=file,
                line=line,
                field=names["system"],
            )
        seen[key] = (file, line)
        known = inputs.get(row.item_id)
        if known is None:
            inputs[row.item_id] = (row.input, (file, line))
        elif collapse_whitespace(known[0]) != collapse_whitespace(row.input):
            raise ImportFileError(
                f"item '{row.item_id}' has a different input than on line {known[1][1]} "
                f"of {known[1][0]} ('{known[0][:80]}').",
                file=file,
                line=line,
                field=names["input"],
            )
