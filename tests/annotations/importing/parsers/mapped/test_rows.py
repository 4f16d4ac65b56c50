"""A row read through the mapping (``annotations.importing.parsers.mapped.rows``): missing
keys, ranks, skip values and padded rows, metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotations.importing.parsers.mapped import parse_mapped
from annotations.importing.parsers.mapped.mapping import mapping_from_dict
from common.errors import ImportFileError
from tests.annotations.importing.conftest import HEADER, rows3, three_slot_mapping, write_csv


def test_jsonl_missing_key_names_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    good = {"w": "1", "i": "x", "s1": "a", "s2": "b", "q1": 1, "q2": 2}
    bad = {k: v for k, v in good.items() if k != "q2"}
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    mapping = mapping_from_dict(
        {
            "format": "jsonl",
            "worker": "w",
            "item": "i",
            "slots": 2,
            "system": "s{i}",
            "criteria": [{"name": "q", "score": "q{i}"}],
        }
    )
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping)
    assert (err.value.line, err.value.field) == (2, "q2")


def test_ranks_skip_values_and_padding(tmp_path: Path) -> None:
    header = (
        ["seg", "judge"]
        + [f"system{i}Id" for i in (1, 2, 3)]
        + [f"system{i}rank" for i in (1, 2, 3)]
    )
    path = write_csv(
        tmp_path / "wmt.csv",
        [
            header,
            ["1", "j", "a", "b", "c", "1", "2", "2"],
            ["1", "k", "a", "b", "c", "1", "-1", "2"],  # not ranked: skipped
            ["2", "j", "a", "b", "", "2", "1", "-1"],  # padded: two outputs
        ],
    )
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "worker": "judge",
            "item": "seg",
            "system": "system{i}Id",
            "criteria": [{"name": "ranking", "score": "system{i}rank", "ranks": True}],
            "skip_values": ["-1"],
        }
    )
    parsed = parse_mapped(path, mapping)
    assert parsed.skipped == 1 and len(parsed.judgements) == 2
    full, short = parsed.judgements
    assert full.ranks == (1.0, 2.0, 2.0) and full.scores == (3.0, 2.0, 2.0)
    assert short.systems == ("a", "b") and short.scores == (1.0, 2.0)
    rows = path.read_text().splitlines()
    path.write_text("\n".join([*rows, "3,j,a,b,c,1,2,4"]) + "\n")
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping)
    assert (err.value.line, err.value.field) == (5, "system3rank")


def test_metadata_kept(tmp_path: Path) -> None:
    header = [*HEADER, "HITId"]
    rows = [header] + [[*r, f"h{n}"] for n, r in enumerate(rows3()[1:])]
    path = write_csv(tmp_path / "r.csv", rows)
    parsed = parse_mapped(path, mapping_from_dict(three_slot_mapping(metadata=["HITId"])))
    assert [j.metadata for j in parsed.judgements[::2]] == [{"HITId": "h0"}, {"HITId": "h1"}]


@pytest.mark.parametrize(
    ("row", "field", "given"),
    [
        pytest.param(["w1", "i1", "A", "", "a", "b", "10", "20"], "out2", "b", id="text"),
        pytest.param(["w1", "i1", "A", "", "a", "", "10", "20"], "score2", "20", id="score"),
        pytest.param(["w1", "i1", "", "B", "", "b", "", "20"], "sys2", "B", id="a later system"),
    ],
)
def test_a_value_beside_an_empty_system_cell_is_refused(tmp_path: Path, row, field, given) -> None:
    """A reviewer's row ``w1,i1,A,,a,b,10,20`` was imported as one output: the filled
    ``out2`` and ``score2`` beside the empty ``sys2`` were dropped without a word."""
    path = write_csv(
        tmp_path / "r.csv",
        [["worker", "item", "sys1", "sys2", "out1", "out2", "score1", "score2"], row],
    )
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "worker": "worker",
            "item": "item",
            "slots": 2,
            "first": 1,
            "system": "sys{i}",
            "output": "out{i}",
            "criteria": [{"name": "quality", "score": "score{i}", "scale": "slider"}],
        }
    )
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping)
    empty = "sys1" if field == "sys2" else "sys2"
    assert (err.value.line, err.value.field) == (2, empty)
    assert f"the system is empty, but field '{field}' gives '{given}'" in str(err.value)


def test_padding_after_the_last_system_is_still_read(tmp_path: Path) -> None:
    """Exports pad narrower judgements with empty cells (or a skip value): still taken."""
    path = write_csv(
        tmp_path / "r.csv",
        [
            ["worker", "item", "sys1", "sys2", "out1", "out2", "score1", "score2"],
            ["w1", "i1", "A", "", "a", "", "10", ""],
            ["w1", "i2", "A", "", "a", " ", "10", "NA"],
        ],
    )
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "worker": "worker",
            "item": "item",
            "slots": 2,
            "first": 1,
            "system": "sys{i}",
            "output": "out{i}",
            "criteria": [{"name": "quality", "score": "score{i}", "scale": "slider"}],
            "skip_values": ["NA"],
        }
    )
    parsed = parse_mapped(path, mapping)
    assert [j.systems for j in parsed.judgements] == [("A",), ("A",)]
