"""Generic outputs CSV (or TSV): a header with ``item_id,input,system,output``, one output a
row.

Columns named ``attr:<name>`` carry the item's attributes (``core.slices``; a blank cell
means the item lacks it); an optional ``language`` column the output's language (BCP 47;
blank: the file's or the campaign's), an optional ``input_language`` column the input's
(a translation's source; blank: the output's); other columns are ignored. Every value of the four columns
must be non-empty.
"""

from __future__ import annotations

from pathlib import Path

from annotations.core.outputs import OutputRow
from annotations.core.slices import SliceError, attribute_name_check
from annotations.importing.parsers.common import (
    CsvTable,
    ParsedOutputs,
    outputs_check_consistent,
    reserved_attribute_check,
    row_language,
)
from common.errors import ImportFileError

COLUMNS = ("item_id", "input", "system", "output")


def parse_outputs_csv(path: Path, *, delimiter: str = ",") -> ParsedOutputs:
    table = CsvTable(path, delimiter=delimiter)
    file, header_line = table.file, table.header_line
    table.require(COLUMNS, hint=f" (the file needs {', '.join(COLUMNS)})")
    index = {column: table.index[column] for column in COLUMNS}
    attribute_columns: list[tuple[str, int]] = []
    for column, i in table.index.items():
        if column.startswith("attr:"):
            reserved_attribute_check(column[5:].strip(), file=file, line=header_line, field=column)
            try:
                attribute_columns.append((attribute_name_check(column[5:].strip()), i))
            except SliceError as exc:
                raise ImportFileError(str(exc), file=file, line=header_line, field=column) from None
    language_at = table.index.get("language")
    input_language_at = table.index.get("input_language")
    languages: dict[str, str] = {}
    rows: list[OutputRow] = []
    where: list[tuple[str, int]] = []
    for line, record in table.records():
        values = {column: record[i].strip() for column, i in index.items()}
        for column in COLUMNS:
            if not values[column]:
                raise ImportFileError("the value is empty.", file=file, line=line, field=column)
        rows.append(
            OutputRow(
                item_id=values["item_id"],
                input=values["input"],
                system=values["system"],
                text=values["output"],
                attributes=tuple(
                    (name, record[i].strip()) for name, i in attribute_columns if record[i].strip()
                ),
                language=row_language(record[language_at], languages, file=file, line=line)
                if language_at is not None
                else "",
                input_language=row_language(
                    record[input_language_at],
                    languages,
                    file=file,
                    line=line,
                    field="input_language",
                )
                if input_language_at is not None
                else "",
            )
        )
        where.append((file, line))
    if not rows:
        raise ImportFileError("the file has a header but no outputs.", file=file, line=header_line)
    parsed = ParsedOutputs(rows=rows, where=where)
    outputs_check_consistent(parsed)
    return parsed
