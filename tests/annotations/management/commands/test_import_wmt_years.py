"""The ``import_wmt`` command imports a WMT13 file with language names."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.annotations.importing.conftest import write_csv
from tests.annotations.importing.wmt_files import FIVE_WAY, five_way

pytestmark = pytest.mark.django_db


def test_the_command_imports_a_wmt13_file_with_names(tmp_path: Path, capsys) -> None:
    path = write_csv(
        tmp_path / "wmt13.csv",
        [FIVE_WAY, five_way("Spanish", "English", 9, "r1", [1, 2, 3, 4, 5])],
    )
    call_command("import_wmt", str(path), "--campaign", "wmt13")
    assert "judgements:                   1" in capsys.readouterr().out
    bad = write_csv(
        tmp_path / "bad.csv", [FIVE_WAY, five_way("Spanish", "Nowhere", 9, "r1", [1, 2, 3, 4, 5])]
    )
    with pytest.raises(CommandError, match="'Nowhere'"):
        call_command("import_wmt", str(bad), "--campaign", "wmt13b")
