from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from annotations.importing.outputs import outputs_import
from annotations.importing.ratings import ratings_import
from annotations.models import (
    Assignment,
    Judgement,
    JudgementScore,
    Output,
    Task,
    TaskOutput,
    Worker,
)
from annotations.services.criteria import criterion_from_preset
from common.errors import ImportFileError
from tests.annotations.importing.conftest import (
    good_quality_rows,
    make_e2e_folder,
    write_ratings,
)
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(tmp_path: Path):
    campaign = CampaignFactory()
    outputs_import(campaign=campaign, path=make_e2e_folder(tmp_path / "e2e", ratings=False))
    return campaign


def test_good_quality_file(tmp_path: Path, campaign) -> None:
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    path = write_ratings(tmp_path / "quality.csv", good_quality_rows())
    summary = ratings_import(campaign=campaign, criterion=criterion, path=path)
    assert (summary.judgements, summary.scores, summary.tasks, summary.workers) == (3, 15, 2, 2)
    assert (summary.outputs_created, summary.texts_differing) == (0, 0)
    assert (summary.twin_pairs, summary.twin_pairs_equal_scores) == (4, 2)

    task = Task.objects.get(criterion=criterion, external_id="u1")
    assert task.kind == Task.Kind.IMPORTED and task.item.external_id == "1"
    assert list(task.task_outputs.values_list("slot", "output__system__label")) == [
        (0, "alpha"),
        (1, "beta1"),
        (2, "beta2"),
        (3, "gamma"),
        (4, "delta"),
    ]
    worker = Worker.objects.get(campaign=campaign, external_id="w1")
    assert worker.platform == Worker.Platform.IMPORTED
    assert worker.metadata == {"_trust": 0.9, "_channel": "neodev", "_tainted": False}
    assert "USA" not in str(list(Worker.objects.values_list("metadata", flat=True)))
    assert "USA" not in str(list(Judgement.objects.values_list("metadata", flat=True)))

    judgement = Judgement.objects.get(metadata___id="j2")
    assert judgement.started_at == datetime(2017, 11, 28, 15, 0, 0, tzinfo=UTC)
    assert judgement.submitted_at == datetime(2017, 11, 28, 15, 1, 30, tzinfo=UTC)
    assert judgement.seconds_on_task == 90
    assignment = judgement.assignment
    assert (assignment.kind, assignment.state) == (
        Assignment.Kind.IMPORTED,
        Assignment.State.SUBMITTED,
    )
    first = Judgement.objects.get(metadata___id="j1")
    rows = list(first.scores.values_list("slot", "score", "rank", "coverage"))
    assert rows == [
        (0, 100.0, 2.0, "ok"),
        (1, 50.0, 5.0, "both"),
        (2, 150.0, 1.0, "ok"),
        (3, 80.0, 3.0, "ok"),
        (4, 80.0, 3.0, "ok"),
    ]
    assert Assignment.objects.filter(task=task).count() == 2


def test_missing_output_is_created_and_differing_text_kept(tmp_path: Path, campaign) -> None:
    Output.objects.filter(item__external_id="2", system__label="alpha").delete()
    rows = good_quality_rows()
    rows[0]["ref1"] = "Alpha's text as shown."
    rows[1]["ref1"] = "Alpha's text as shown."
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    summary = ratings_import(
        campaign=campaign, criterion=criterion, path=write_ratings(tmp_path / "q.csv", rows)
    )
    assert (summary.outputs_created, summary.texts_differing) == (1, 2)
    shown = TaskOutput.objects.get(task__external_id="u1", slot=0)
    assert shown.text == "Alpha's text as shown." and shown.shown_text == shown.text
    created = Output.objects.get(item__external_id="2", system__label="alpha")
    assert created.text == rows[2]["ref5"]


def _bad(rows_edit) -> list[dict[str, str]]:
    rows = good_quality_rows()
    rows_edit(rows)
    return rows


BAD = {
    "negative score": (lambda r: r[1].update(quality3="-5"), 4, "quality3"),
    "not a number": (lambda r: r[2].update(quality1="lots"), 6, "quality1"),
    "empty score": (lambda r: r[0].update(quality5=""), 2, "quality5"),
    "bad time": (lambda r: r[2].update(_started_at="2017-11-28 14:00"), 6, "_started_at"),
    "ends before start": (
        lambda r: r[2].update(_created_at="11/27/2017 10:00:00"),
        6,
        "_created_at",
    ),
    "coverage": (lambda r: r[1].update(check2="maybe"), 4, "check2"),
    "dupl_ref": (lambda r: r[1].update(dupl_ref1="9.0"), 4, "dupl_ref1"),
    "unit shows other systems": (lambda r: r[1].update(sys2="gamma", sys4="beta1"), 4, "sys2"),
    "repeated id": (lambda r: r[2].update(_id="j1"), 6, "_id"),
    "mr_id": (lambda r: r[2].update(mr_id="x"), 6, "mr_id"),
    "mr differs from the campaign": (lambda r: r[2].update(mr="name[Other]"), 6, "mr"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_ratings_name_file_line_field_and_write_nothing(
    tmp_path, campaign, counts, case
) -> None:
    edit, line, field = BAD[case]
    path = write_ratings(tmp_path / "quality.csv", _bad(edit))
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    before = counts()
    with pytest.raises(ImportFileError) as info:
        ratings_import(campaign=campaign, criterion=criterion, path=path)
    err = info.value
    assert (err.file, err.line, err.field) == (str(path), line, field)
    assert str(path) in str(err) and f"line {line}" in str(err) and f"'{field}'" in str(err)
    assert counts() == before


def test_quoted_newlines_shift_lines(tmp_path, campaign) -> None:
    """Line numbers count physical lines: the 'added\\nmissing' labels span two."""
    rows = good_quality_rows()
    rows[2]["quality4"] = "-1"
    path = write_ratings(tmp_path / "quality.csv", rows)
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    with pytest.raises(ImportFileError) as info:
        ratings_import(campaign=campaign, criterion=criterion, path=path)
    # header on line 1, each earlier row takes two lines (a quoted newline in check2)
    assert info.value.line == 6


def test_missing_column(tmp_path, campaign, counts) -> None:
    path = tmp_path / "quality.csv"
    write_ratings(path, good_quality_rows())
    text = path.read_text(encoding="utf-8").replace("mr_id", "mr_number", 1)
    path.write_text(text, encoding="utf-8")
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    before = counts()
    with pytest.raises(ImportFileError) as info:
        ratings_import(campaign=campaign, criterion=criterion, path=path)
    assert (info.value.file, info.value.line, info.value.field) == (str(path), 1, "mr_id")
    assert counts() == before


def test_second_import_is_refused(tmp_path, campaign, counts) -> None:
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    path = write_ratings(tmp_path / "quality.csv", good_quality_rows())
    ratings_import(campaign=campaign, criterion=criterion, path=path)
    before = counts()
    with pytest.raises(ImportFileError, match="imported before") as info:
        ratings_import(campaign=campaign, criterion=criterion, path=path)
    assert (info.value.line, info.value.field) == (2, "_unit_id")
    assert counts() == before
    assert JudgementScore.objects.count() == 15
