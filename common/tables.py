"""Rules every tabular file (CSV, TSV) is read by, whichever importer reads it: a cell
may be as long as the file (as a JSONL value may), a header names each column once, and a
header repeated below it (two released files joined into one) is not a record; and the
one CSV writer every export writes with (:func:`csv_writer`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from common.errors import ImportFileError

if TYPE_CHECKING:
    from _csv import Reader

#: Python's csv module refuses a cell over 131,072 characters ("field larger than field
#: limit"), a long output or document that a JSONL file of the same texts passes. The
#: files are bounded by the upload limit, so a cell is bounded by its file: the module's
#: limit (process-wide) is raised once to the largest a C long surely holds.
CELL_LIMIT = 2**31 - 1


def csv_reader(text: str, *, delimiter: str = ",") -> Reader:
    """A strict ``csv.reader`` over ``text`` whose cells may be as long as the file."""
    if csv.field_size_limit() < CELL_LIMIT:
        csv.field_size_limit(CELL_LIMIT)
    return csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)


class _Writer:
    """``csv.writer``'s rows, except that a row with a carriage return in a cell is
    written with every cell quoted. Python's writer quotes a cell holding the delimiter,
    the quote or a character of its line terminator, and ours is ``\n``: a bare ``\r``
    went out unquoted, so a spreadsheet split the row there and began a new row with the
    rest of the cell, past the formula guard (``=cmd|...`` after the ``\r``), and a
    strict reader refused the file."""

    def __init__(self, out: Any, lineterminator: str) -> None:
        self._minimal = csv.writer(out, lineterminator=lineterminator)
        self._all = csv.writer(out, lineterminator=lineterminator, quoting=csv.QUOTE_ALL)

    def writerow(self, row: Iterable[Any]) -> Any:
        cells = list(row)
        returns = any(isinstance(c, str) and "\r" in c for c in cells)
        return (self._all if returns else self._minimal).writerow(cells)

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out: Any, *, lineterminator: str = "\n") -> _Writer:
    """The CSV writer of every export: ``csv.writer``'s, with a cell holding a carriage
    return always quoted (``tests/common/test_tables.py`` checks that no other module
    writes CSV with ``csv.writer`` itself)."""
    return _Writer(out, lineterminator)


def header_check(names: Sequence[str], *, file: str, line: int) -> None:
    """Refuse a header that names a column twice (read as is, the last one would win
    silently). Blank names (a spreadsheet's empty trailing columns) may repeat."""
    seen: set[str] = set()
    for name in names:
        key = name.strip().casefold()
        if key and key in seen:
            raise ImportFileError(
                "the header names this column twice; keep one (or rename the other).",
                file=file,
                line=line,
                field=name.strip(),
            )
        seen.add(key)


def record_check(record: Sequence[str], names: Sequence[str], *, file: str, line: int) -> None:
    """Refuse a record that repeats the header (two files joined one after the other):
    read as data, its column names would become a system, an item and an output."""
    if [c.strip().casefold() for c in record] == [n.strip().casefold() for n in names]:
        raise ImportFileError(
            "this line repeats the header (were two files joined into one?); remove it, "
            "or import the files one by one.",
            file=file,
            line=line,
        )


_SEPARATORS = ((";", "semicolons"), ("\t", "tabs"), (",", "commas"), ("|", "vertical bars"))


def missing_columns_refused(
    names: Sequence[str],
    missing: Sequence[str],
    *,
    file: str,
    line: int,
    delimiter: str,
    why: str = "",
) -> ImportFileError:
    """The refusal of a header (``names``) that lacks the columns ``missing``: every one
    named at once (the first is the error's field), ``why`` they are needed, and what the
    header most likely got wrong (:func:`missing_columns_hint`)."""
    many = len(missing) > 1
    return ImportFileError(
        f"the header lacks {'these columns' if many else 'this column'}{why}: "
        f"{', '.join(missing)}.{missing_columns_hint(names, missing, delimiter=delimiter)}",
        file=file,
        line=line,
        field=missing[0],
    )


def missing_columns_hint(names: Sequence[str], missing: Sequence[str], *, delimiter: str) -> str:
    """What a header that lacks ``missing`` most likely got wrong, as sentences to add to
    the refusal ("" when nothing stands out): the whole header in one column holding
    another separator (a spreadsheet that saved with semicolons), or a column named with
    other capitals."""
    if len(names) == 1:
        for separator, called in _SEPARATORS:
            if separator != delimiter and separator in names[0]:
                wanted = "tabs" if delimiter == "\t" else "commas"
                return (
                    f" The header is one column holding {called}: the file seems separated "
                    f"by {called}; save it separated by {wanted}."
                )
    have = {_loose(name): name.strip() for name in names}
    near = [f"'{have[_loose(m)]}' for '{m}'" for m in missing if _loose(m) in have]
    if near:
        return (
            f" The file has {', '.join(near)}: column names are matched exactly, capitals, "
            "spaces and underscores included."
        )
    return ""


def near_miss(names: Sequence[str], wanted: str) -> str | None:
    """The name of ``names`` that ``wanted`` was most likely meant as (other capitals,
    spaces, hyphens or underscores), or None."""
    loose = _loose(wanted)
    return next((name for name in names if _loose(name) == loose), None)


def _loose(name: str) -> str:
    """A column name as people vary it: capitals, and spaces, hyphens or underscores."""
    return "".join(c for c in name.strip().casefold() if c not in " _-")
