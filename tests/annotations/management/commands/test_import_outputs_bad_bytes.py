"""The ``import_outputs`` command names the file given, writes nothing on error, warns of systems no task shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.annotations.bad_bytes import CASES, GOOD
from tests.annotations.importing.conftest import model_counts
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


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
