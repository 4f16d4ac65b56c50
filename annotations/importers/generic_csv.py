"""Generic outputs CSV: a header with ``item_id,input,system,output``, one output a row.

Other columns are ignored. Every value of the four columns must be non-empty.
"""

from __future__ import annotations

from pathlib import Path

from annotations.errors import ImportFileError
from annotations.importers.common import ParsedOutputs, csv_records, outputs_check_consistent
from annotations.services.campaigns import OutputRow

COLUMNS = ("item_id", "input", "system", "output")


def parse_outputs_csv(path: Path) -> ParsedOutputs:
    file = str(path)
    records = csv_records(path)
    try:
        header_line, header = next(records)
    except StopIteration:
        raise ImportFileError("the file is empty (a header line is expected).", file=file) from None
    header = [h.strip() for h in header]
    for column in COLUMNS:
        if column not in header:
            raise ImportFileError(
                f"the header lacks the column '{column}' (expected {', '.join(COLUMNS)}).",
                file=file,
                line=header_line,
                field=column,
            )
    index = {column: header.index(column) for column in COLUMNS}
    rows: list[OutputRow] = []
    where: list[tuple[str, int]] = []
    for line, record in records:
        if len(record) != len(header):
            missing = header[len(record)] if len(record) < len(header) else ""
            raise ImportFileError(
                f"expected {len(header)} columns as in the header, found {len(record)}.",
                file=file,
                line=line,
                field=missing or f"column {len(header) + 1}",
            )
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
