"""Reading a rating file's records (``annotations.importing.parsers.mapped.source``):
JSONL keys and dotted paths, a line that is not an object, bytes that are not text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotations.importing.parsers.mapped import parse_mapped
from annotations.importing.parsers.mapped.mapping import mapping_from_dict
from common.errors import ImportFileError
from tests.annotations.importing.conftest import three_slot_mapping


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
    assert parsed.slots == 3  # the most a row holds (it said 10, the most it would read)
    assert [j.systems for j in parsed.judgements] == [("a", "b"), ("a", "b", "c")]
    assert parsed.judgements[0].scores == (3.0, 1.5)
    assert [j.line for j in parsed.judgements] == [1, 2]


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


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ('{"w":"w1","i":"i1","s1":"A","o1":"a","q1":3,"m":{"k":"\\udfff"}}', "m.k"),
        ('{"w":"w1","i":"i\\ud800","s1":"A","o1":"a","q1":3,"m":{}}', "i"),
    ],
    ids=["in metadata", "in the item id"],
)
def test_a_lone_surrogate_in_a_jsonl_record_is_refused(
    tmp_path: Path, line: str, field: str
) -> None:
    """JSON's ``\\udfff`` escape decodes to a lone surrogate, which no database driver
    encodes: stored on SQLite it broke the campaign's exports (a 500, an empty CSV); on
    PostgreSQL, and in an id, the import was a 500. Now refused naming line and field."""
    path = tmp_path / "r.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    mapping = mapping_from_dict(
        {
            "format": "jsonl",
            "worker": "w",
            "item": "i",
            "slots": 1,
            "system": "s1",
            "output": "o1",
            "criteria": [{"name": "fluency", "score": "q1"}],
            "metadata_json": "m",
        }
    )
    with pytest.raises(ImportFileError) as err:
        parse_mapped(path, mapping)
    assert (err.value.line, err.value.field) == (1, field)
    assert "surrogate" in str(err.value)
