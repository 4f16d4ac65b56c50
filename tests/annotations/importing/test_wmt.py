from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.wmt import wmt_import
from annotations.models import Criterion, Item, Judgement, Output, Task, Worker
from common.errors import ImportFileError
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory, OutputFactory

pytestmark = pytest.mark.django_db

HEADER = ["srclang", "trglang", "segmentId", "judgeId"] + [
    f"system{i}{c}" for c in ("Id", "rank") for i in range(1, 6)
]


def row(segment: str, judge: str, systems: list[str], ranks: list[int]) -> list[str]:
    return ["cze", "eng", segment, judge, *systems, *map(str, ranks)]


SYSTEMS = ["s1", "s2", "s3", "s4", "s5"]
GOOD = [
    HEADER,
    row("10", "judgeA", SYSTEMS, [1, 2, 2, 4, 5]),
    row("10", "judgeB", SYSTEMS, [5, 4, 3, 2, 1]),
    row("11", "judgeA", SYSTEMS, [1, -1, 2, 3, 4]),
]


def test_good_wmt(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    kept = OutputFactory(
        item__campaign=campaign, item__external_id="10", system__label="s1", text="Kept."
    )
    s = wmt_import(campaign=campaign, path=write_csv(tmp_path / "wmt.csv", GOOD))
    assert (s.judgements, s.skipped_unranked, s.workers) == (2, 1, 2)
    assert (s.items_created, s.systems_created, s.outputs_created) == (0, 4, 4)
    assert Output.objects.get(pk=kept.pk).text == "Kept."
    assert Output.objects.get(item__external_id="10", system__label="s5").text == ""
    assert not Item.objects.filter(campaign=campaign, external_id="11").exists()
    criterion = Criterion.objects.get(campaign=campaign, name="ranking")
    assert criterion.scale == Criterion.Scale.LIKERT
    judgement = Judgement.objects.get(worker__external_id="judgeA")
    assert list(judgement.scores.values_list("score", "rank")) == [
        (5.0, 1.0),
        (4.0, 2.0),
        (4.0, 2.0),
        (2.0, 4.0),
        (1.0, 5.0),
    ]
    assert judgement.task.kind == Task.Kind.IMPORTED and judgement.task.external_id == ""
    assert Task.objects.filter(campaign=campaign).count() == 2
    assert Worker.objects.get(external_id="judgeB").platform == Worker.Platform.IMPORTED


def test_same_file_twice_is_refused(tmp_path: Path, counts) -> None:
    campaign = CampaignFactory()
    path = write_csv(tmp_path / "wmt.csv", GOOD)
    wmt_import(campaign=campaign, path=path, criterion_name="adequacy")
    before = counts()
    with pytest.raises(ImportFileError, match="imported before"):
        wmt_import(campaign=campaign, path=path, criterion_name="adequacy")
    assert counts() == before


BAD = {
    "rank out of range": (
        [HEADER, row("1", "j", SYSTEMS, [1, 2, 3, 4, 5]), row("2", "j", SYSTEMS, [1, 2, 3, 4, 6])],
        3,
        "system5rank",
    ),
    "rank not a number": (
        [HEADER, [*row("2", "j", SYSTEMS, [1, 2, 3, 4, 5])[:-1], "x"]],
        2,
        "system5rank",
    ),
    "empty judge": ([HEADER, row("2", "", SYSTEMS, [1, 2, 3, 4, 5])], 2, "judgeId"),
    "same system twice": (
        [HEADER, row("2", "j", ["a", "b", "a", "c", "d"], [1, 2, 3, 4, 5])],
        2,
        "system3Id",
    ),
    "missing column": ([[h for h in HEADER if h != "system2rank"], ["x"] * 13], 1, "system2rank"),
    "column count": ([HEADER, row("2", "j", SYSTEMS, [1, 2, 3, 4, 5])[:-2]], 2, "system4rank"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_wmt_names_file_line_field_and_writes_nothing(tmp_path: Path, counts, case) -> None:
    rows, line, field = BAD[case]
    path = write_csv(tmp_path / "bad.csv", rows)
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError) as info:
        wmt_import(campaign=campaign, path=path)
    err = info.value
    assert (err.file, err.line, err.field) == (str(path), line, field)
    assert str(path) in str(err) and f"line {line}" in str(err) and f"'{field}'" in str(err)
    assert counts() == before
