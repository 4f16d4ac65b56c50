"""The ``import_outputs`` command, and its exit on failure."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.models import Campaign
from tests.annotations.importing.conftest import write_csv

pytestmark = pytest.mark.django_db


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
