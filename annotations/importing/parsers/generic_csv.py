"""Generic outputs CSV: a header with ``item_id,input,system,output``, one output a row.

Other columns are ignored. Every value of the four columns must be non-empty.
"""

from __future__ import annotations

from pathlib import Path

from annotations.importing.parsers.common import (
    CsvTable,
    OutputRow,
    ParsedOutputs,
    outputs_check_consistent,
)
from common.errors import ImportFileError

COLUMNS = ("item_id", "input", "system", "output")


def parse_outputs_csv(path: Path) -> ParsedOutputs:
    table = CsvTable(path)
    file, header_line = table.file, table.header_line
    table.require(COLUMNS, hint=f" (expected {', '.join(COLUMNS)})")
    index = {column: table.index[column] for column in COLUMNS}
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
            )
        )
        where.append((file, line))
    if not rows:
        raise ImportFileError("the file has a header but no outputs.", file=file, line=header_line)
    parsed = ParsedOutputs(rows=rows, where=where)
    outputs_check_consistent(parsed)
    return parsed
