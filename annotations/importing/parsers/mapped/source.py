"""Reading a rating file's records: CSV or TSV through ``CsvTable``, JSONL one object a
line, where a column is a key or a dotted path into nested objects and lists. A file
humaneval exported as CSV is read back with ``formula_quoted``: the apostrophe the export
put before a formula's first character is taken off. Pure: no Django."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from annotations.core.export_safety import csv_cell_read
from annotations.importing.parsers.common import CsvTable, read_text, refuse_nul
from common.errors import ImportFileError
from common.jsontext import JsonTextError, json_loads
from common.tables import missing_columns_refused


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


class Source:
    """Records of a file as ``(line, get)`` where ``get(column)`` is the cell's text or
    ``None`` when the column is absent; ``columns`` are the header's names (JSONL: the
    keys of the first object)."""

    def __init__(
        self, path: Path, fmt: str, names: Sequence[str] = (), *, formula_quoted: bool = False
    ) -> None:
        self.file = str(path)
        self.formula_quoted = formula_quoted
        self.fmt = fmt
        self._table: CsvTable | None = None
        #: a column read under another name (:meth:`read_aliases`)
        self._aliases: dict[str, str] = {}
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

    @property
    def delimiter(self) -> str:
        """The separator the file is read with (a CSV saved with semicolons: ";")."""
        return self._table.delimiter if self._table is not None else ""

    def has(self, column: str) -> bool:
        return column in self.columns

    def refuse_missing(self, missing: Sequence[str], *, why: str) -> ImportFileError:
        """The refusal of a header that lacks ``missing`` (each named, with its near miss),
        placed at this file's header line."""
        return missing_columns_refused(
            self.columns,
            missing,
            file=self.file,
            line=self.header_line,
            delimiter=self.delimiter,
            why=why,
        )

    def read_aliases(self, aliases: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Read a column the header lacks under the first of its other names it has (a
        mapping's ``aliases``)."""
        for name, others in aliases:
            if name in self.columns:
                continue
            other = next((o for o in others if o in self.columns), None)
            if other is not None:
                self._aliases[name] = other
                self.columns = [*self.columns, name]

    def records(self) -> Iterator[tuple[int, Any]]:
        if self._table is not None:
            index = self._table.index
            cell = csv_cell_read if self.formula_quoted else str
            aliases = self._aliases
            for line, values in self._table.records():

                def get(column: str, values: list[str] = values) -> str | None:
                    at = index.get(aliases.get(column, column))
                    return None if at is None else cell(values[at]).strip()

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
                found, value = _lookup(record, self._aliases.get(column, column))
                return _text(value) if found else None

            yield n, get_json


def file_columns(path: Path, fmt: str) -> list[str]:
    """The header's column names (JSONL: the keys of the first object)."""
    return list(Source(Path(path), fmt).columns)
