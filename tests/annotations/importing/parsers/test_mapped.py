"""The column-mapped rating parser (``annotations.importing.parsers.mapped``, pure): a whole
file read through a mapping, the same input for an item on every row, the preview of
the first rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.parsers.mapped import parse_mapped, preview_mapped
from annotations.importing.parsers.mapped.mapping import mapping_from_dict
from common.errors import ImportFileError
from tests.annotations.importing.conftest import (
    HEADER,
    rows3,
    three_slot_mapping,
    write_csv,
    write_tsv,
)


def test_three_outputs_two_criteria(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "r.csv", rows3())
    parsed = parse_mapped(path, mapping_from_dict(three_slot_mapping()))
    assert parsed.slots == 3 and len(parsed.rows) == 2
    by = {(j.line, j.criterion): j for j in parsed.judgements}
    assert set(by) == {(2, "fluency"), (2, "adequacy"), (3, "fluency"), (3, "adequacy")}
    first = by[2, "fluency"]
    assert (first.item_id, first.worker_id, first.input) == ("s1", "w1", "a source")
    assert first.systems == ("A", "B", "C") and first.texts == ("ta", "tb", "tc")
    assert first.scores == (1.0, 2.0, 3.0) and first.ranks == (None, None, None)
    assert by[3, "adequacy"].systems == ("C", "A", "B")
    assert by[3, "adequacy"].scores == (2.0, 2.0, 2.5)
    assert first.started_at is None and first.unit_id == ""


def test_tsv(tmp_path: Path) -> None:
    path = write_tsv(tmp_path / "r.tsv", rows3())
    parsed = parse_mapped(path, mapping_from_dict(three_slot_mapping(format="tsv")))
    assert len(parsed.judgements) == 4


def test_same_item_other_input(tmp_path: Path) -> None:
    rows = rows3()
    rows[2][HEADER.index("src")] = "another source"
    path = write_csv(tmp_path / "r.csv", rows)
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping_from_dict(three_slot_mapping()))
    assert (err.value.line, err.value.field) == (3, "src")


def test_preview_reads_the_first_rows_only(tmp_path: Path) -> None:
    rows = rows3()
    rows.append(["w3", "s2", "x", "A", "B", "C", "t", "t", "t", "oops", "1", "1", "1", "1", "1"])
    path = write_csv(tmp_path / "r.csv", rows)
    mapping = mapping_from_dict(three_slot_mapping())
    preview = preview_mapped(path, mapping, rows=2)
    assert [r.line for r in preview.rows] == [2, 3]
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping)
    assert (err.value.line, err.value.field) == (4, "flu1")
