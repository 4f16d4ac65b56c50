"""Helpers every parser shares: decoding, line ends, CSV records with their line numbers."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from datetime import UTC, datetime
from pathlib import Path

from annotations.core.languages import LanguageError, language_check, language_from_code_or_name
from annotations.core.outputs import (
    ITEM_ID_MAX,
    SYSTEM_LABEL_MAX,
    UNIT_ID_MAX,
    WORKER_ID_MAX,
    OutputRow,
)
from common.errors import ImportFileError
from common.nul import nul_message, nul_path
from common.tables import csv_reader, header_check, missing_columns_refused, record_check

_LINE_END = re.compile(r"\r+\n?")


_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def _looks_utf16(data: bytes) -> bool:
    """UTF-16 text without a byte-order mark: ASCII-range text with a NUL byte in every
    other position (the even ones for big-endian, the odd ones for little-endian)."""
    sample = data[:4096]
    if len(sample) < 4:
        return False
    even, odd = sample[0::2], sample[1::2]
    return max(even.count(0) / len(even), odd.count(0) / len(odd)) > 0.9


def _bad_byte_field(text: str, line: int, delimiter: str | None) -> str:
    """The header column of a tabular file in which the bad byte of ``line`` sits."""
    if delimiter is None:
        return ""
    lines = text.split("\n")
    if line < 2 or line > len(lines):
        return ""
    try:
        header = next(csv.reader([lines[0]], delimiter=delimiter))
        cells = next(csv.reader([lines[line - 1]], delimiter=delimiter))
    except (csv.Error, StopIteration):
        return ""
    index = next((i for i, cell in enumerate(cells) if "\ufffd" in cell), None)
    if index is None or index >= len(header):
        return ""
    return header[index].strip()


def ranked_within(ranks: Sequence[float]) -> tuple[int, ...]:
    """Ranks ranked again within their row, ties kept (1 + how many rank better): a pair
    cut from a five-way ranking keeps its ranks (WMT15-16), 1 and 3 becoming 1 and 2."""
    return tuple(1 + sum(other < rank for other in ranks) for rank in ranks)


def refuse_nul(value: object, *, file: str, line: int) -> None:
    """A decoded JSON record with a NUL character (a ``\\u0000`` escape) is refused,
    naming the key (``common.nul``: PostgreSQL cannot store one)."""
    where = nul_path(value)
    if where is not None:
        raise ImportFileError(nul_message("The value"), file=file, line=line, field=where)


def read_text(path: Path, *, delimiter: str | None = None) -> str:
    """The file decoded as UTF-8 (a byte-order mark is dropped) with ``\\n`` line ends.

    Released files mix LF, CRLF and even CR CR LF line ends; every run of CRs with an
    optional LF counts as one line end, so line numbers match what an editor shows.

    Files that are not UTF-8 text are refused before any parsing, naming the line (and,
    for a CSV/TSV file whose ``delimiter`` is given, the column) of the first bad byte:
    an empty (0-byte) file, UTF-16 text with or without a byte-order mark, a NUL byte
    (binary data), and invalid UTF-8.
    """
    file = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImportFileError(f"cannot read the file ({exc.strerror}).", file=file) from exc
    if not data:
        raise ImportFileError("the file is empty (0 bytes).", file=file)
    if data.startswith(_UTF16_BOMS) or _looks_utf16(data):
        raise ImportFileError(
            "the file is UTF-16 text; save it as UTF-8 (e.g. 'CSV UTF-8' in a spreadsheet).",
            file=file,
            line=1,
        )
    nul = data.find(b"\x00")
    if nul >= 0:
        line = _LINE_END.sub("\n", data[:nul].decode("utf-8", "replace")).count("\n") + 1
        shown = data.decode("utf-8-sig", "replace").replace("\x00", "\ufffd")
        raise ImportFileError(
            "the file holds a NUL byte (binary data, not text).",
            file=file,
            line=line,
            field=_bad_byte_field(_LINE_END.sub("\n", shown), line, delimiter),
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = _LINE_END.sub("\n", data[: exc.start].decode("utf-8-sig", "replace"))
        line = before.count("\n") + 1
        column = len(before.rsplit("\n", 1)[-1]) + 1
        replaced = _LINE_END.sub("\n", data.decode("utf-8-sig", "replace"))
        raise ImportFileError(
            f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x} at character "
            f"{column} cannot be read); save it as UTF-8.",
            file=file,
            line=line,
            field=_bad_byte_field(replaced, line, delimiter),
        ) from exc
    return _LINE_END.sub("\n", text)


def csv_records(path: Path, *, delimiter: str = ",") -> Iterator[tuple[int, list[str]]]:
    """Each record of a CSV/TSV file with the line it starts on (1-based).

    Quoted fields may span lines; blank lines are skipped.
    """
    text = read_text(path, delimiter=delimiter)
    reader = csv_reader(text, delimiter=delimiter)
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
        if not "".join(row).strip():  # no cells, or only blank ones
            continue
        yield start, row


class CsvTable:
    """A CSV file with a header line: its column names, and its records checked against them.

    An empty file, a missing column and a record with another number of columns than the
    header are errors naming the file, the line and the field. ``delimiter="\t"`` reads
    a TSV file; ``names`` reads a file without a header line, its columns so named. A CSV
    whose header is one column holding semicolons (a spreadsheet saved in a locale with
    a decimal comma) is read with semicolons.
    """

    def __init__(
        self, path: Path, *, delimiter: str = ",", names: Sequence[str] | None = None
    ) -> None:
        self.file = str(path)
        self.delimiter = delimiter
        self._records = csv_records(path, delimiter=delimiter)
        self._header_read = not names
        if names:  # a file without a header line (Appraise's CSV exports): names given
            self.header_line, header = 1, list(names)
        else:
            self.header_line, header = self._header()
            if delimiter == "," and len(header) == 1 and ";" in header[0]:
                # A spreadsheet's CSV in a locale whose decimal mark is a comma: read it
                # with the semicolons it was saved with.
                self.delimiter = ";"
                self._records = csv_records(path, delimiter=";")
                self.header_line, header = self._header()
        self.names = [h.strip() for h in header]
        if self._header_read:
            header_check(self.names, file=self.file, line=self.header_line)
        self.index = {name: i for i, name in enumerate(self.names)}

    def _header(self) -> tuple[int, list[str]]:
        try:
            return next(self._records)
        except StopIteration:
            raise ImportFileError(
                "the file is empty (a header line is expected).", file=self.file
            ) from None

    def require(self, columns: Iterable[str], *, hint: str = "") -> None:
        """Every column the header lacks, named at once (the first is the error's field),
        with what the header most likely got wrong."""
        missing = [column for column in columns if column not in self.index]
        if missing:
            raise missing_columns_refused(
                self.names,
                missing,
                file=self.file,
                line=self.header_line,
                delimiter=self.delimiter,
                why=hint,
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
            if self._header_read:
                record_check(record, self.names, file=self.file, line=line)
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


def row_language(
    written: str,
    known: dict[str, str],
    *,
    file: str,
    line: int,
    field: str = "language",
    names: bool = False,
) -> str:
    """A row's language code checked (once per distinct spelling); "" when blank.

    ``names``: a language name (``French``) or a placeholder (``-1``: none) is taken too
    (``core.languages.language_from_code_or_name``), as WMT's files write them.
    """
    written = written.strip()
    if not written:
        return ""
    tag = known.get(written)
    if tag is None:
        try:
            check = language_from_code_or_name if names else language_check
            tag = known[written] = check(written)
        except LanguageError as error:
            raise ImportFileError(str(error), file=file, line=line, field=field) from None
    return tag


def input_language_check(
    first: dict[str, tuple[str, int]],
    item_id: str,
    language: str,
    *,
    file: str,
    line: int,
    field: str = "input_language",
) -> None:
    """An item's input has one language: ``language`` (this row's, "" when not given) is
    the one an earlier row gave the item (``first``: item -> (language, line)), or the
    first given."""
    if not language:
        return
    had = first.setdefault(item_id, (language, line))
    if had[0] != language:
        raise ImportFileError(
            f"item '{item_id}' has its input in '{had[0]}' on line {had[1]}, '{language}' "
            "here: an input has one language.",
            file=file,
            line=line,
            field=field,
        )


def reserved_attribute_check(name: str, *, file: str, line: int, field: str) -> None:
    """``language`` and ``input_language`` are not attributes: they are the outputs' and
    the inputs' language columns or keys."""
    if name in ("language", "input_language"):
        raise ImportFileError(
            "'language' is the outputs' language: give it as a 'language' column (or key), "
            "not as an attribute.",
            file=file,
            line=line,
            field=field,
        )


#: what each kind of id is, and its longest: a longer one is refused by line, on SQLite as
#: on PostgreSQL (whose columns refuse it; a rating file's ids gave a 500 there, and
#: SQLite kept them)
ID_LIMITS = {
    "system": ("a system's name", SYSTEM_LABEL_MAX),
    "item": ("an item's id", ITEM_ID_MAX),
    "worker": ("a worker's id", WORKER_ID_MAX),
    "unit": ("a task's id", UNIT_ID_MAX),
}


def id_bounded(value: str, kind: str, *, file: str, line: int, field: str) -> str:
    """``value`` when it fits the column of its ``kind`` (:data:`ID_LIMITS`), else a
    refusal naming the file, line and field."""
    what, longest = ID_LIMITS[kind]
    if len(value) > longest:
        raise ImportFileError(
            f"the value has {len(value):,} characters; at most {longest} are kept for {what}.",
            file=file,
            line=line,
            field=field,
        )
    return value


def outputs_check_consistent(parsed: ParsedOutputs) -> None:
    """No (item, system) twice, one input and one input language per item, and one value
    per item attribute."""
    seen: dict[tuple[str, str], tuple[str, int, str]] = {}
    inputs: dict[str, tuple[str, tuple[str, int]]] = {}
    input_languages: dict[str, tuple[str, int]] = {}
    attributes: dict[tuple[str, str], tuple[str, int]] = {}
    names = parsed.field_names
    for row, (file, line) in zip(parsed.rows, parsed.where, strict=True):
        id_bounded(row.system, "system", file=file, line=line, field=names["system"])
        id_bounded(row.item_id, "item", file=file, line=line, field=names["item_id"])
        for name, value in row.attributes:
            first = attributes.setdefault((row.item_id, name), (value, line))
            if first[0] != value:
                raise ImportFileError(
                    f"item '{row.item_id}' has {name} '{first[0]}' on line {first[1]}, "
                    f"'{value}' here: an attribute has one value per item.",
                    file=file,
                    line=line,
                    field=f"attr:{name}",
                )
        key = (row.item_id, row.system)
        if key in seen:
            first_file, first_line, first_text = seen[key]
            said = (
                "repeats the output of line {line} of {file} (the same system, item and "
                "text): remove one of them."
                if collapse_whitespace(first_text) == collapse_whitespace(row.text)
                else "is a second, different output of system '{system}' for item '{item}' "
                "(the first is on line {line} of {file}): keep one."
            )
            raise ImportFileError(
                "this line "
                + said.format(
                    line=first_line, file=first_file, system=row.system, item=row.item_id
                ),
                file=file,
                line=line,
                field=names["system"],
            )
        seen[key] = (file, line, row.text)
        input_language_check(input_languages, row.item_id, row.input_language, file=file, line=line)
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
