"""A mapping against the file's header (``annotations.importing.parsers.mapped.header``):
k from the header, and every column the header lacks named at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.parsers.mapped import parse_mapped
from annotations.importing.parsers.mapped.header import header_problems
from annotations.importing.parsers.mapped.mapping import mapping_from_dict
from common.errors import ImportFileError
from tests.annotations.importing.conftest import rows3, three_slot_mapping, write_csv


def test_auto_slots_and_zero_based(tmp_path: Path) -> None:
    header = ["w", "item", "sys0", "sys1", "q0", "q1"]
    path = write_csv(tmp_path / "z.csv", [header, ["u", "i1", "x", "y", "7", "9"]])
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "worker": "w",
            "item": "item",
            "first": 0,
            "system": "sys{i}",
            "criteria": [{"name": "q", "score": "q{i}"}],
        }
    )
    parsed = parse_mapped(path, mapping)
    assert parsed.slots == 2
    assert parsed.judgements[0].systems == ("x", "y")
    assert parsed.judgements[0].scores == (7.0, 9.0)


def test_auto_slots_takes_one_output_per_row(tmp_path: Path) -> None:
    """A header with one numbered system column holds one output per row (it used to
    need two)."""
    path = write_csv(tmp_path / "r.csv", [["w", "i", "s1", "q1"], ["a", "b", "c", "1"]])
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "item": "i",
            "system": "s{i}",
            "criteria": [{"name": "q", "score": "q{i}"}],
        }
    )
    parsed = parse_mapped(path, mapping)
    assert parsed.slots == 1
    assert [(j.systems, j.scores) for j in parsed.judgements] == [(("c",), (1.0,))]


def test_header_lacks_a_column(tmp_path: Path) -> None:
    rows = rows3()
    rows[0][rows[0].index("ade2")] = "adequacy2"
    path = write_csv(tmp_path / "r.csv", rows)
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping_from_dict(three_slot_mapping()))
    assert (err.value.file, err.value.line, err.value.field) == (str(path), 1, "ade2")
    assert header_problems(mapping_from_dict(three_slot_mapping()), rows[0]) == ["ade2"]


def test_every_missing_column_is_named_at_once(tmp_path: Path) -> None:
    """The preview (and the import) names every column the file lacks, not the first."""
    rows = rows3()
    for old in ("ade2", "flu3", "judge"):
        rows[0][rows[0].index(old)] = old.upper()
    path = write_csv(tmp_path / "r.csv", rows)
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping_from_dict(three_slot_mapping()))
    message = str(err.value)
    for column in ("ade2", "flu3", "judge"):
        assert column in message
    assert (err.value.line, err.value.field) == (1, "judge")
