"""Rules every tabular file (CSV, TSV) is read by, whichever importer reads it: a header
names each column once, and a header repeated below it (two released files joined into
one) is not a record."""

from __future__ import annotations

from collections.abc import Sequence

from common.errors import ImportFileError


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
