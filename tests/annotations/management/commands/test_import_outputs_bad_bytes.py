"""The ``import_outputs`` command names the file given, writes nothing on error, warns of systems no task shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.annotations.importing.conftest import model_counts
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


GOOD = "item_id,input,system,output\nm1,name[A],s1,A is here.\nm2,name[B],s1,B is there.\n"


# name: (bytes, line, field, words of the reason)
CASES: dict[str, tuple[bytes, int | None, str, str]] = {
    "NUL byte": (
        b"item_id,input,system,output\nm1,name[A],s1,ok\nm2,name[\x00B],s1,ok\n",
        3,
        "input",
        "NUL byte",
    ),
    "invalid UTF-8": (
        b"item_id,input,system,output\nm1,name[A],s1,caf\xe9 au lait\n",
        2,
        "output",
        "not UTF-8",
    ),
    "Latin-1 in the header": (b"item_id,input,syst\xe8me,output\n", 1, "", "not UTF-8"),
    "UTF-16 with BOM": (GOOD.encode("utf-16"), 1, "", "UTF-16"),
    "UTF-16 LE without BOM": (GOOD.encode("utf-16-le"), 1, "", "UTF-16"),
    "UTF-16 BE without BOM": (GOOD.encode("utf-16-be"), 1, "", "UTF-16"),
    "0-byte file": (b"", None, "", "empty (0 bytes)"),
}


def test_cli_error_names_the_file_given_and_writes_nothing(tmp_path: Path) -> None:
    from django.core.management import CommandError, call_command

    CampaignFactory(slug="mine")
    path = tmp_path / "bad.csv"
    path.write_bytes(CASES["NUL byte"][0])
    before = model_counts()
    with pytest.raises(CommandError) as info:
        call_command("import_outputs", str(path), "--campaign", "mine")
    message = str(info.value)
    assert "bad.csv, line 3, field 'input'" in message and "NUL byte" in message
    assert model_counts() == before


def test_cli_warns_about_systems_no_built_task_shows(tmp_path: Path, capsys) -> None:
    from django.core.management import call_command

    from annotations.models import Task
    from tests.factories import CriterionFactory

    campaign = CampaignFactory(slug="mine")
    first = tmp_path / "a.csv"
    first.write_text(GOOD, encoding="utf-8")
    call_command("import_outputs", str(first), "--campaign", "mine")
    criterion = CriterionFactory(campaign=campaign)
    Task.objects.create(campaign=campaign, criterion=criterion, item=campaign.items.earliest("id"))
    late = tmp_path / "b.csv"
    late.write_text(GOOD.replace(",s1,", ",late,"), encoding="utf-8")
    call_command("import_outputs", str(late), "--campaign", "mine")
    assert "no task shows late yet" in capsys.readouterr().err
