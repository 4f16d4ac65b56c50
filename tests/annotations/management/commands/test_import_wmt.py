"""The ``import_wmt`` command."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.annotations.importing.conftest import write_csv

pytestmark = pytest.mark.django_db


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


def test_a_bad_file_leaves_no_campaign(tmp_path: Path, counts) -> None:
    """The import owns the transaction: the campaign it would create is not kept either."""
    header = ["segmentId", "judgeId", "system1Id", "system2Id", "system1rank", "system2rank"]
    before = counts()
    bad = write_csv(tmp_path / "x.csv", [header, ["1", "j", "a", "b", "1", "7"]])
    with pytest.raises(CommandError, match="nothing was written"):
        call_command("import_wmt", str(bad), campaign="new-one", stdout=StringIO())
    assert counts() == before
