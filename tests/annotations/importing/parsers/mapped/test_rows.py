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
    path.write_text("\n".join([*rows, "3,j,a,b,c,1,2,11"]) + "\n")
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping)
    assert (err.value.line, err.value.field) == (5, "system3rank")
    assert "not a rank from 1 to 10" in str(err.value)


def test_ranks_of_a_longer_ranking_are_ranked_within_the_row(tmp_path: Path) -> None:
    """WMT15-16's pairs cut from a five-way ranking keep its ranks (1 and 3): the web's
    ``wmt`` preset refused them ("'3' is not a rank from 1 to 2"), which ``import_wmt``
    reads, ranked within the row."""
    header = [
        *("srclang", "trglang", "srcIndex", "documentId", "segmentId", "judgeID"),
        *("system1Number", "system1Id", "system2Number", "system2Id"),
        *("system1rank", "system2rank", "rankingID"),
    ]
    row = ["cze", "eng", "1", "doc1", "1", "judge1", "1", "cu-bojar", "2", "online-B"]
    path = write_csv(
        tmp_path / "pairs.csv",
        [header, [*row, "1", "3", "77"], [*row, "4", "4", "78"], [*row, "5", "2", "79"]],
    )
    from annotations.importing.parsers.presets import preset_mapping

    parsed = parse_mapped(path, preset_mapping("wmt"))
    assert [j.ranks for j in parsed.judgements] == [(1.0, 2.0), (1.0, 1.0), (2.0, 1.0)]
    assert [j.scores for j in parsed.judgements] == [(2.0, 1.0), (2.0, 2.0), (1.0, 2.0)]


def test_metadata_kept(tmp_path: Path) -> None:
    header = [*HEADER, "HITId"]
    rows = [header] + [[*r, f"h{n}"] for n, r in enumerate(rows3()[1:])]
    path = write_csv(tmp_path / "r.csv", rows)
    parsed = parse_mapped(path, mapping_from_dict(three_slot_mapping(metadata=["HITId"])))
    assert [j.metadata for j in parsed.judgements[::2]] == [{"HITId": "h0"}, {"HITId": "h1"}]


def _two_slots(**extra: object):
    """Two slots of system, text and slider score (``sys{i}``, ``out{i}``, ``score{i}``)."""
    return mapping_from_dict(
        {
            "format": "csv",
            "worker": "worker",
            "item": "item",
            "slots": 2,
            "first": 1,
            "system": "sys{i}",
            "output": "out{i}",
            "criteria": [{"name": "quality", "score": "score{i}", "scale": "slider"}],
            **extra,
        }
    )


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
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, _two_slots())
    empty = "sys1" if field == "sys2" else "sys2"
    assert (err.value.line, err.value.field) == (2, empty)
    assert f"the system is empty, but field '{field}' gives '{given}'" in str(err.value)


def test_a_rank_check_or_coverage_after_an_empty_system_cell_is_refused(tmp_path: Path) -> None:
    header = ["judge", "seg", "sys1", "sys2", "q1", "q2", "r1", "r2", "c1", "c2", "v1", "v2"]
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "worker": "judge",
            "item": "seg",
            "slots": 2,
            "system": "sys{i}",
            "criteria": [
                {"name": "q", "score": "q{i}", "rank": "r{i}", "checks": "c{i}", "coverage": "v{i}"}
            ],
        }
    )
    for given, field in (("r2", "2"), ("c2", "perfect"), ("v2", "x")):
        row = dict.fromkeys(header, "")
        row.update({"judge": "w1", "seg": "i1", "sys1": "A", "q1": "3", "r1": "1", given: field})
        path = write_csv(tmp_path / f"{given}.csv", [header, [row[h] for h in header]])
        with pytest.raises(ImportFileError) as err:
            parse_mapped(path, mapping)
        assert (err.value.line, err.value.field) == (2, "sys2")
        assert f"field '{given}' gives '{field}'" in str(err.value)


@pytest.mark.parametrize(
    ("column", "longest"), [("judge", 200), ("seg", 200), ("unit", 100), ("sys1", 100)]
)
def test_an_id_longer_than_its_column_is_refused_by_line(
    tmp_path: Path, column: str, longest: int
) -> None:
    """A reviewer's 1,000-character system, item, unit and worker ids: a 500 on PostgreSQL
    (its columns refuse them), kept whole on SQLite. Now the file, line and field."""
    header = ["judge", "seg", "unit", "sys1", "sys2", "q1", "q2"]
    row = {"judge": "w1", "seg": "i1", "unit": "u1", "sys1": "A", "sys2": "B", "q1": "2", "q2": "5"}
    mapping = mapping_from_dict(
        {
            "format": "csv",
            "worker": "judge",
            "item": "seg",
            "unit": "unit",
            "system": "sys{i}",
            "criteria": [{"name": "q", "score": "q{i}", "scale": "likert", "levels": [1, 5]}],
        }
    )
    fits = write_csv(tmp_path / "fits.csv", [header, [*{**row, column: "x" * longest}.values()]])
    assert len(parse_mapped(fits, mapping).judgements) == 1
    long = write_csv(
        tmp_path / "long.csv", [header, [*{**row, column: "x" * (longest + 1)}.values()]]
    )
    with pytest.raises(ImportFileError) as err:
        parse_mapped(long, mapping)
    assert (err.value.line, err.value.field) == (2, column)
    assert f"at most {longest} are kept" in str(err.value)


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
    parsed = parse_mapped(path, _two_slots(skip_values=["NA"]))
    assert [j.systems for j in parsed.judgements] == [("A",), ("A",)]
