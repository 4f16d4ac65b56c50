from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.outputs import outputs_import
from annotations.models import Item, Output, System
from common.errors import ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory, OutputFactory

HEADER = ["item_id", "input", "system", "output"]
GOOD = [
    HEADER,
    ["m1", "name[A]", "s1", "A is here."],
    ["m1", "name[A]", "s2", "A is  here."],
    ["m2", "name[B]", "s1", "B, with a\nnewline."],
]

pytestmark = pytest.mark.django_db


def test_good_csv(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    summary = outputs_import(campaign=campaign, path=write_csv(tmp_path / "o.csv", GOOD))
    assert (summary.systems, summary.items, summary.outputs) == (2, 2, 3)
    assert summary.identical_groups == 1  # "A is here." and "A is  here." (whitespace)
    assert Item.objects.get(campaign=campaign, external_id="m2").input == "name[B]"
    assert Output.objects.get(item__external_id="m2").text == "B, with a\nnewline."
    assert sorted(System.objects.filter(campaign=campaign).values_list("label", flat=True)) == [
        "s1",
        "s2",
    ]


BAD = {
    "missing column": ([["item_id", "input", "output"], ["m1", "x", "y"]], 1, "system"),
    "empty field": (
        [HEADER, ["m1", "name[A]", "s1", "ok"], ["m2", "name[B]", "s1", " "]],
        3,
        "output",
    ),
    "duplicate": ([HEADER, ["m1", "i", "s1", "a"], ["m1", "i", "s1", "b"]], 3, "system"),
    "different input": ([HEADER, ["m1", "i", "s1", "a"], ["m1", "j", "s2", "b"]], 3, "input"),
    "column count": ([HEADER, ["m1", "i", "s1"]], 2, "output"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_csv_names_file_line_field_and_writes_nothing(tmp_path: Path, counts, case) -> None:
    rows, line, field = BAD[case]
    path = write_csv(tmp_path / "bad.csv", rows)
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError) as info:
        outputs_import(campaign=campaign, path=path)
    err = info.value
    assert (err.file, err.line, err.field) == (str(path), line, field)
    assert str(path) in str(err) and f"line {line}" in str(err) and f"'{field}'" in str(err)
    assert counts() == before


def test_unterminated_quote(tmp_path: Path, counts) -> None:
    path = tmp_path / "q.csv"
    path.write_text('item_id,input,system,output\nm1,i,s1,"open\n', encoding="utf-8")
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError) as info:
        outputs_import(campaign=campaign, path=path)
    assert (info.value.file, info.value.line) == (str(path), 2)
    assert counts() == before


def test_output_already_in_campaign_is_refused(tmp_path: Path, counts) -> None:
    existing = OutputFactory(item__external_id="m2", item__input="name[B]", system__label="s1")
    before = counts()
    path = write_csv(tmp_path / "o.csv", GOOD)
    with pytest.raises(ImportFileError) as info:
        outputs_import(campaign=existing.item.campaign, path=path)
    assert (info.value.line, info.value.field) == (4, "output")
    assert "already has the output" in str(info.value)
    assert counts() == before


def test_unknown_extension(tmp_path: Path) -> None:
    path = tmp_path / "o.xlsx"
    path.write_text("x", encoding="utf-8")
    with pytest.raises(ImportFileError, match="unknown format") as info:
        outputs_import(campaign=CampaignFactory(), path=path)
    assert info.value.file == str(path)


def test_the_statements_do_not_grow_with_the_rows(tmp_path: Path) -> None:
    """The outputs are written through the outputs service's bulk writer: no statement
    per row, per item or per system."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    statements = []
    for n in (4, 40):
        rows = [HEADER] + [[f"m{i}", f"in {i}", f"s{i % n}", f"text {i}"] for i in range(n)]
        path = write_csv(tmp_path / f"o{n}.csv", rows)
        with CaptureQueriesContext(connection) as context:
            outputs_import(campaign=CampaignFactory(), path=path)
        statements.append(len(context.captured_queries))
    assert statements[0] == statements[1]


@pytest.mark.parametrize(
    ("second", "said"),
    [
        ("a", "this line repeats the output of line 2"),
        ("b", "this line is a second, different output of system 's1' for item 'm1'"),
    ],
)
def test_a_repeated_line_is_told_apart_from_a_conflicting_one(
    tmp_path: Path, second: str, said: str
) -> None:
    """Both were refused as "system 's1' has a second output", without saying whether the
    two lines were the same (a file joined twice) or disagreed."""
    path = write_csv(
        tmp_path / "o.csv", [HEADER, ["m1", "i", "s1", "a"], ["m1", "i", "s1", second]]
    )
    with pytest.raises(ImportFileError, match=said) as refused:
        outputs_import(campaign=CampaignFactory(), path=path)
    assert (refused.value.line, refused.value.field) == (3, "system")
