"""Tabular files (common/tables.py), through the importers that read them: a column named
twice, and a header repeated mid-file (two released files joined), are refused naming
the line, never imported as data (an outside review saw a system called "system" and an
output called "output" after such an upload, and the last of two "output" columns
imported silently)."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.parsers.generic_csv import parse_outputs_csv
from annotations.importing.parsers.mapped import parse_mapped
from annotations.importing.parsers.presets import preset_mapping
from common.errors import ImportFileError
from common.tables import csv_reader, header_check, record_check
from reports.core.metric_files import parse_metric_file


def _file(tmp_path: Path, text: str, name: str = "out.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_header_repeated_mid_file_is_refused_naming_its_line(tmp_path) -> None:
    path = _file(
        tmp_path,
        "item_id,input,system,output\n1,in1,sA,o1\nitem_id,input,system,output\n2,in2,sA,o2\n",
    )
    with pytest.raises(ImportFileError, match="repeats the header") as refused:
        parse_outputs_csv(path)
    assert refused.value.line == 3


def test_a_column_named_twice_is_refused_naming_it(tmp_path) -> None:
    path = _file(tmp_path, "item_id,input,system,output,Output\n1,in1,sA,first,second\n")
    with pytest.raises(ImportFileError, match="names this column twice") as refused:
        parse_outputs_csv(path)
    assert (refused.value.line, refused.value.field) == (1, "Output")


def test_a_cell_longer_than_pythons_csv_limit_is_read_as_jsonl_would_be(tmp_path) -> None:
    """A 200,000-character output (a long document) was refused as "malformed CSV (field
    larger than field limit (131072))"; the same text in JSONL imported."""
    long = "word " * 40_000
    path = _file(tmp_path, f'item_id,input,system,output\n1,in1,sA,"{long}"\n')
    (row,) = parse_outputs_csv(path).rows
    assert row.text == long.strip()


def test_the_metrics_file_keeps_the_same_rules(tmp_path) -> None:
    twice = "system,metric,score,score\nsA,bleu,1,2\n"
    with pytest.raises(ImportFileError, match="names this column twice"):
        parse_metric_file(twice.encode(), file="m.csv")
    joined = "system,metric,score\nsA,bleu,1\nsystem,metric,score\nsB,bleu,2\n"
    with pytest.raises(ImportFileError, match="repeats the header") as refused:
        parse_metric_file(joined.encode(), file="m.csv")
    assert refused.value.line == 3


def test_blank_trailing_columns_may_repeat_and_a_record_like_a_header_in_part_is_data() -> None:
    header_check(["item_id", "output", "", ""], file="f", line=1)
    record_check(["item_id", "an output"], ["item_id", "output"], file="f", line=2)


@pytest.mark.parametrize(
    ("row", "field"),
    [(f"1,in1,{'s' * 101},o1", "system"), (f"{'i' * 201},in1,sA,o1", "item_id")],
    ids=["a system's name", "an item's id"],
)
def test_a_name_longer_than_the_database_keeps_is_refused_by_line(tmp_path, row, field) -> None:
    """It was stored on SQLite and a 500 on PostgreSQL (a varchar's limit)."""
    path = _file(tmp_path, f"item_id,input,system,output\n1,in0,sB,o0\n{row}\n")
    with pytest.raises(ImportFileError, match="at most") as refused:
        parse_outputs_csv(path)
    assert (refused.value.line, refused.value.field) == (3, field)


def test_a_semicolon_separated_file_is_read_with_its_semicolons(tmp_path) -> None:
    """A spreadsheet saved with semicolons (locales with a decimal comma) was refused as
    lacking 'item_id', without a word on why; it is read as saved."""
    path = _file(tmp_path, "\ufeffitem_id;input;system;output\r\n1;in, with a comma;sA;o1\r\n")
    (row,) = parse_outputs_csv(path).rows
    assert (row.item_id, row.input, row.system, row.text) == ("1", "in, with a comma", "sA", "o1")


def test_another_separator_is_named(tmp_path) -> None:
    path = _file(tmp_path, "item_id|input|system|output\n1|in1|sA|o1\n")
    with pytest.raises(ImportFileError, match="the file seems separated by vertical bars"):
        parse_outputs_csv(path)


def test_a_column_named_with_other_capitals_is_pointed_out(tmp_path) -> None:
    path = _file(tmp_path, "Item_ID,input,system,output\n1,in1,sA,o1\n")
    with pytest.raises(ImportFileError, match="The file has 'Item_ID' for 'item_id'"):
        parse_outputs_csv(path)


def test_every_missing_column_is_named_with_the_near_miss_for_each(tmp_path) -> None:
    """'Item ID,Input,System,Output' was refused for item_id alone, without a hint."""
    path = _file(tmp_path, "Item ID,Input,System,Output\n1,in1,sA,o1\n")
    with pytest.raises(ImportFileError) as refused:
        parse_outputs_csv(path)
    message = str(refused.value)
    assert (
        "the header lacks these columns (the file needs item_id, input, system, output): item_id, input, system, output."
        in message
    )
    assert "'Item ID' for 'item_id', 'Input' for 'input'" in message
    assert refused.value.field == "item_id"


def test_a_mapped_file_gets_the_same_hints(tmp_path) -> None:
    path = _file(tmp_path, "HITId|WorkerId|Input.item_id\n1|w|i\n")
    with pytest.raises(ImportFileError, match="separated by vertical bars"):
        parse_mapped(path, preset_mapping("mturk"))
    path = _file(tmp_path, "hitid,workerid,input.item_id\n1,w,i\n")
    with pytest.raises(ImportFileError, match="'workerid' for 'WorkerId'"):
        parse_mapped(path, preset_mapping("mturk"))


def test_the_export_writer_quotes_a_cell_with_a_carriage_return() -> None:
    import io

    from common.tables import csv_writer

    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerows([["a", "b\rc", 1], ["d", "e", 2]])
    assert out.getvalue() == '"a","b\rc","1"\nd,e,2\n'
    assert list(csv_reader(out.getvalue())) == [["a", "b\rc", "1"], ["d", "e", "2"]]


def test_no_module_writes_csv_but_through_the_one_writer() -> None:
    """Every CSV export goes through ``common.tables.csv_writer`` (a bare CR quoted); the
    bulk writer's COPY rows quote every text (``QUOTE_NONNUMERIC``)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    allowed = {"common/tables.py", "annotations/services/bulk.py"}
    writers = [
        str(path.relative_to(root))
        for package in ("annotations", "ranking", "reports", "common", "humaneval")
        for path in (root / package).rglob("*.py")
        if re.search(r"\bcsv\.(writer|DictWriter)\(", path.read_text())
    ]
    assert sorted(set(writers) - allowed) == []
    assert "csv.writer(" in (root / "annotations/services/bulk.py").read_text()
