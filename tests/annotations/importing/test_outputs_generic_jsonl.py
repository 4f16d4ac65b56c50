from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotations.importing.outputs import outputs_import
from annotations.models import Output
from common.errors import ImportFileError
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def row(
    item_id: object = "m1", input: object = "name[A]", system: object = "s1", output: object = "A."
) -> str:
    return json.dumps({"item_id": item_id, "input": input, "system": system, "output": output})


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_good_jsonl(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    path = write(
        tmp_path / "o.jsonl",
        [row(), "", row(system="s2", output="A!"), row(item_id=7, input="name[B]")],
    )
    summary = outputs_import(campaign=campaign, path=path)
    assert (summary.systems, summary.items, summary.outputs) == (2, 2, 3)
    assert Output.objects.get(item__external_id="7", system__label="s1").text == "A."


BAD = {
    "bad json": ([row(), '{"item_id": "m2", '], 2, ""),
    "not an object": ([row(), "[1, 2]"], 2, ""),
    "missing key": (
        [row(), json.dumps({"item_id": "m2", "input": "x", "output": "y"})],
        2,
        "system",
    ),
    "empty value": ([row(), row(item_id="m2", output="  ")], 2, "output"),
    "not a string": ([row(), row(item_id="m2", input=3)], 2, "input"),
    "duplicate": ([row(), row(output="other")], 2, "system"),
    "different input": ([row(), "", row(system="s2", input="name[Z]")], 3, "input"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_jsonl_names_file_line_field_and_writes_nothing(tmp_path: Path, counts, case) -> None:
    lines, line, field = BAD[case]
    path = write(tmp_path / "bad.jsonl", lines)
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError) as info:
        outputs_import(campaign=campaign, path=path)
    err = info.value
    assert (err.file, err.line, err.field) == (str(path), line, field)
    assert str(path) in str(err) and f"line {line}" in str(err)
    if field:
        assert f"field '{field}'" in str(err)
    assert counts() == before
