"""The import management commands, on small files."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.models import Campaign, Criterion, Judgement
from annotations.services.criteria import E2E_NATURALNESS_QUESTION, E2E_QUALITY_QUESTION
from tests.annotations.importing.conftest import write_csv

pytestmark = pytest.mark.django_db


def test_import_e2e(e2e_folder: Path, counts) -> None:
    out = StringIO()
    call_command("import_e2e", str(e2e_folder), campaign="small", stdout=out)
    text = out.getvalue()
    for line in (
        "systems:                  5",
        "items:                    2",
        "criteria:                 2",
        "judgements:               5",
        "identical-output groups:  1",
        "workers:                  3",
    ):
        assert line in text
    campaign = Campaign.objects.get(slug="small")
    questions = dict(Criterion.objects.filter(campaign=campaign).values_list("name", "question"))
    assert questions == {"quality": E2E_QUALITY_QUESTION, "naturalness": E2E_NATURALNESS_QUESTION}
    assert Judgement.objects.filter(criterion__name="naturalness").count() == 2

    before = counts()
    with pytest.raises(CommandError, match="already holds imported E2E judgements"):
        call_command("import_e2e", str(e2e_folder), campaign="small", stdout=StringIO())
    assert counts() == before


def test_import_e2e_failure_leaves_no_campaign(e2e_folder: Path, counts) -> None:
    """The ratings fail after outputs were written: the whole import rolls back."""
    path = e2e_folder / "naturalness.csv"
    path.write_text(path.read_text(encoding="utf-8").replace(",2,", ",1,", 1), encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError) as info:
        call_command("import_e2e", str(e2e_folder), campaign="small", stdout=StringIO())
    assert (
        str(path) in str(info.value) and "line 2" in str(info.value) and "'mr'" in str(info.value)
    )
    assert counts() == before


def test_import_outputs_and_failure_exit(tmp_path: Path, counts) -> None:
    good = write_csv(
        tmp_path / "o.csv", [["item_id", "input", "system", "output"], ["m", "i", "s", "t"]]
    )
    out = StringIO()
    call_command("import_outputs", str(good), campaign="c1", stdout=out)
    assert "outputs:                1" in out.getvalue()
    before = counts()
    with pytest.raises(CommandError, match=r"o\.csv, line 2, field 'output'"):
        call_command("import_outputs", str(good), campaign="c1", stdout=StringIO())
    bad = write_csv(tmp_path / "b.csv", [["item_id", "input", "system"], ["m", "i", "s"]])
    with pytest.raises(CommandError, match="field 'output'"):
        call_command("import_outputs", str(bad), campaign="c2", stdout=StringIO())
    assert counts() == before
    assert not Campaign.objects.filter(slug="c2").exists()


def test_import_wmt(tmp_path: Path, counts) -> None:
    header = ["segmentId", "judgeId", "system1Id", "system2Id", "system1rank", "system2rank"]
    path = write_csv(
        tmp_path / "w.csv",
        [header, ["1", "j", "a", "b", "1", "2"], ["2", "j", "a", "b", "-1", "1"]],
    )
    out = StringIO()
    call_command("import_wmt", str(path), campaign="wmt", criterion="adequacy", stdout=out)
    assert "judgements:                   1" in out.getvalue()
    assert "skipped (a rank of -1):       1" in out.getvalue()
    before = counts()
    bad = write_csv(tmp_path / "x.csv", [header, ["1", "j", "a", "b", "1", "7"]])
    with pytest.raises(CommandError, match=r"x\.csv, line 2, field 'system2rank'"):
        call_command("import_wmt", str(bad), campaign="wmt", stdout=StringIO())
    assert counts() == before
