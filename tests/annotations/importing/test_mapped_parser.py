"""The column-mapped rating parser (pure): mappings, header checks, rows, errors, preview."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from annotations.importing.parsers.mapped import (
    AGGREGATE_WORKER,
    MappingError,
    header_problems,
    mapping_from_dict,
    parse_mapped,
    preview_mapped,
)
from common.errors import ImportFileError
from tests.annotations.importing.conftest import write_csv, write_tsv

HEADER = ["judge", "seg", "src", "team1", "team2", "team3", "hyp1", "hyp2", "hyp3"] + [
    f"{c}{i}" for c in ("flu", "ade") for i in (1, 2, 3)
]


def three_slot_mapping(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "csv",
        "worker": "judge",
        "item": "seg",
        "input": "src",
        "slots": 3,
        "system": "team{i}",
        "output": "hyp{i}",
        "criteria": [
            {"name": "fluency", "score": "flu{i}"},
            {"name": "adequacy", "score": "ade{i}"},
        ],
    }
    data.update(changes)
    return data


def rows3() -> list[list[str]]:
    return [
        list(HEADER),
        ["w1", "s1", "a source", "A", "B", "C", "ta", "tb", "tc", "1", "2", "3", "4", "5", "5"],
        ["w2", "s1", "a source", "C", "A", "B", "tc", "ta", "tb", "3", "3", "1", "2", "2", "2.5"],
    ]


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


def test_tsv(tmp_path: Path) -> None:
    path = write_tsv(tmp_path / "r.tsv", rows3())
    parsed = parse_mapped(path, mapping_from_dict(three_slot_mapping(format="tsv")))
    assert len(parsed.judgements) == 4


def test_jsonl_nested_outputs_variable_width(tmp_path: Path) -> None:
    objects = [
        {
            "worker_id": "w1",
            "item_id": "i1",
            "outputs": [{"system": "a", "score": 3}, {"system": "b", "score": 1.5}],
        },
        {
            "worker_id": "w2",
            "item_id": "i1",
            "outputs": [
                {"system": "a", "score": 1},
                {"system": "b", "score": 2},
                {"system": "c", "score": 3},
            ],
        },
    ]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(json.dumps(o) for o in objects) + "\n", encoding="utf-8")
    mapping = mapping_from_dict(
        {
            "format": "jsonl",
            "worker": "worker_id",
            "item": "item_id",
            "first": 0,
            "system": "outputs.{i}.system",
            "criteria": [{"name": "q", "score": "outputs.{i}.score"}],
        }
    )
    parsed = parse_mapped(path, mapping)
    assert [j.systems for j in parsed.judgements] == [("a", "b"), ("a", "b", "c")]
    assert parsed.judgements[0].scores == (3.0, 1.5)
    assert [j.line for j in parsed.judgements] == [1, 2]


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


def test_jsonl_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"w": 1}\n{oops\n', encoding="utf-8")
    mapping = mapping_from_dict(
        {
            "format": "jsonl",
            "item": "w",
            "system": "s{i}",
            "criteria": [{"name": "q", "score": "q{i}"}],
        }
    )
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping)
    assert err.value.line in (1, 2)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"format": "xlsx"}, "format"),
        ({"slots": -1}, "slots"),
        ({"slots": 11}, "slots"),
        ({"first": 2}, "first"),
        ({"system": "team"}, "system"),
        ({"output": "hyp"}, "output"),
        ({"item": ""}, "item"),
        ({"worker": "judge{i}"}, "worker"),
        ({"criteria": []}, "criteria"),
        ({"criteria": [{"name": "Flu ency", "score": "flu{i}"}]}, "criteria[0].name"),
        ({"criteria": [{"name": "f", "score": "flu"}]}, "criteria[0].score"),
        ({"criteria": [{"name": "f", "score": "f{i}", "scale": "stars"}]}, "criteria[0].scale"),
        (
            {"criteria": [{"name": "f", "score": "f{i}"}, {"name": "f", "score": "g{i}"}]},
            "criteria[1].name",
        ),
        ({"started_at": "t"}, "time_format"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_mapping_refused(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(MappingError) as err:
        mapping_from_dict(three_slot_mapping(**changes))
    assert err.value.field == field
    assert field in str(err.value)


def test_header_lacks_a_column(tmp_path: Path) -> None:
    rows = rows3()
    rows[0][rows[0].index("ade2")] = "adequacy2"
    path = write_csv(tmp_path / "r.csv", rows)
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping_from_dict(three_slot_mapping()))
    assert (err.value.file, err.value.line, err.value.field) == (str(path), 1, "ade2")
    assert header_problems(mapping_from_dict(three_slot_mapping()), rows[0]) == ["ade2"]


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


def test_same_item_other_input(tmp_path: Path) -> None:
    rows = rows3()
    rows[2][HEADER.index("src")] = "another source"
    path = write_csv(tmp_path / "r.csv", rows)
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping_from_dict(three_slot_mapping()))
    assert (err.value.line, err.value.field) == (3, "src")


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


def test_metadata_kept(tmp_path: Path) -> None:
    header = [*HEADER, "HITId"]
    rows = [header] + [[*r, f"h{n}"] for n, r in enumerate(rows3()[1:])]
    path = write_csv(tmp_path / "r.csv", rows)
    parsed = parse_mapped(path, mapping_from_dict(three_slot_mapping(metadata=["HITId"])))
    assert [j.metadata for j in parsed.judgements[::2]] == [{"HITId": "h0"}, {"HITId": "h1"}]


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


@pytest.mark.parametrize(
    ("data", "line", "words"),
    [
        (b"", None, "empty"),
        ("judge,seg\n".encode("utf-16"), 1, "UTF-16"),
        (b"judge,seg\nw\x00,s\n", 2, "NUL"),
        (b"judge,seg\nw\xff,s\n", 2, "not UTF-8"),
    ],
)
def test_bad_bytes(tmp_path: Path, data: bytes, line: int | None, words: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(data)
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping_from_dict(three_slot_mapping()))
    assert err.value.line == line and words in err.value.reason
    assert err.value.file == str(path)
