"""A row's cells (``annotations.importing.parsers.mapped.cells``): numbers, empty cells and
times, each error naming the line and the column."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from annotations.importing.parsers.mapped import parse_mapped
from annotations.importing.parsers.mapped.mapping import mapping_from_dict
from annotations.importing.parsers.mapped.rows import AGGREGATE_WORKER
from common.errors import ImportFileError
from tests.annotations.importing.conftest import HEADER, rows3, three_slot_mapping, write_csv


@pytest.mark.parametrize(
    ("column", "value", "reason"),
    [
        ("flu2", "good", "not a number"),
        ("flu2", "", "empty"),
        ("flu2", "nan", "not a number"),
        ("seg", "", "empty"),
        ("judge", "", "empty"),
        ("team3", "A", "twice"),
    ],
)
def test_cell_errors_name_line_and_field(
    tmp_path: Path, column: str, value: str, reason: str
) -> None:
    rows = rows3()
    rows[2][HEADER.index(column)] = value
    path = write_csv(tmp_path / "r.csv", rows)
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping_from_dict(three_slot_mapping()))
    assert (err.value.line, err.value.field) == (3, column)
    assert reason in err.value.reason


@pytest.mark.parametrize(
    ("fmt", "started", "submitted", "expected"),
    [
        (
            "iso",
            "2024-03-01T10:00:00Z",
            "2024-03-01T10:00:30+00:00",
            datetime(2024, 3, 1, 10, tzinfo=UTC),
        ),
        ("epoch", "1709287200", "1709287230.5", datetime(2024, 3, 1, 10, tzinfo=UTC)),
        (
            "%d.%m.%Y %H:%M",
            "01.03.2024 10:00",
            "01.03.2024 10:01",
            datetime(2024, 3, 1, 10, tzinfo=UTC),
        ),
    ],
)
def test_times(tmp_path: Path, fmt: str, started: str, submitted: str, expected: datetime) -> None:
    header = ["w", "i", "s1", "s2", "q1", "q2", "t0", "t1"]
    path = write_csv(
        tmp_path / "t.csv", [header, ["w", "i", "a", "b", "1", "2", started, submitted]]
    )
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "worker": "w",
            "item": "i",
            "system": "s{i}",
            "criteria": [{"name": "q", "score": "q{i}"}],
            "started_at": "t0",
            "submitted_at": "t1",
            "time_format": fmt,
        }
    )
    j = parse_mapped(path, mapping).judgements[0]
    assert j.started_at == expected and j.submitted_at is not None and j.submitted_at > expected


def test_bad_time_and_reversed_times(tmp_path: Path) -> None:
    header = ["w", "i", "s1", "s2", "q1", "q2", "t0", "t1"]
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "item": "i",
            "system": "s{i}",
            "criteria": [{"name": "q", "score": "q{i}"}],
            "started_at": "t0",
            "submitted_at": "t1",
            "time_format": "iso",
        }
    )
    path = write_csv(tmp_path / "t.csv", [header, ["w", "i", "a", "b", "1", "2", "yesterday", "x"]])
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping)
    assert (err.value.line, err.value.field) == (2, "t0")
    path = write_csv(
        tmp_path / "t.csv",
        [header, ["w", "i", "a", "b", "1", "2", "2024-01-02T00:00:00", "2024-01-01T00:00:00"]],
    )
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping)
    assert (err.value.line, err.value.field) == (2, "t1")
    # Without a worker column, rows are judgements of the one aggregate worker.
    path = write_csv(
        tmp_path / "t.csv",
        [header, ["w", "i", "a", "b", "1", "2", "2024-01-01T00:00:00", "2024-01-01T00:00:00"]],
    )
    assert parse_mapped(path, mapping).judgements[0].worker_id == AGGREGATE_WORKER
