"""The ``import_ratings`` command: presets, JSON mappings, a renamed criterion, the preview, errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.models import (
    Campaign,
    Judgement,
)
from tests.annotations.importing.conftest import rows3, three_slot_mapping, write_csv
from tests.annotations.importing.parsers.test_presets import FILES

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------------------
# The command


def test_command_with_preset_and_json_file(tmp_path: Path) -> None:
    out = StringIO()
    path = FILES["mturk"](tmp_path)
    call_command(
        "import_ratings", str(path), "--mapping", "mturk", "--campaign", "turk", stdout=out
    )
    assert "judgements:            2 (rating)" in out.getvalue()
    campaign = Campaign.objects.get(slug="turk")
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 2
    mapping_file = tmp_path / "m.json"
    mapping_file.write_text(json.dumps(three_slot_mapping()), encoding="utf-8")
    call_command(
        "import_ratings",
        str(write_csv(tmp_path / "r.csv", rows3())),
        "--mapping",
        str(mapping_file),
        "--campaign",
        "turk",
        stdout=StringIO(),
    )
    assert Judgement.objects.filter(criterion__campaign=campaign).count() == 6


def test_command_criterion_renamed(tmp_path: Path) -> None:
    call_command(
        "import_ratings",
        str(FILES["potato"](tmp_path)),
        "--mapping",
        "potato",
        "--campaign",
        "pot",
        "--criterion",
        "coherence",
        "--experts",
        stdout=StringIO(),
    )
    campaign = Campaign.objects.get(slug="pot")
    assert list(campaign.criteria.values_list("name", flat=True)) == ["coherence"]
    assert set(campaign.workers.values_list("expert", flat=True)) == {True}


def _wmt_preview(tmp_path: Path, rows: str, out: StringIO) -> None:
    call_command(
        "import_ratings",
        str(FILES["wmt"](tmp_path)),
        "--mapping",
        "wmt",
        "--campaign",
        "x",
        "--preview",
        rows,
        stdout=out,
    )


def test_command_preview_writes_nothing(
    tmp_path: Path, counts: Callable[[], dict[str, int]]
) -> None:
    out = StringIO()
    before = counts()
    _wmt_preview(tmp_path, "1", out)
    assert counts() == before
    assert "line 2: item 7, worker w1, ranking: a=3, b=1, c=2" in out.getvalue()


@pytest.mark.parametrize("rows", ["0", "-3", "some"])
def test_a_preview_of_no_rows_is_refused_and_writes_nothing(
    tmp_path: Path, counts: Callable[[], dict[str, int]], rows: str
) -> None:
    """``--preview 0`` imported the file, where a preview was asked for."""
    before = counts()
    with pytest.raises(CommandError, match="at least 1"):
        _wmt_preview(tmp_path, rows, StringIO())
    assert counts() == before


def test_command_errors(tmp_path: Path, counts: Callable[[], dict[str, int]]) -> None:
    before = counts()
    with pytest.raises(CommandError, match="no mapping 'nope'"):
        call_command("import_ratings", "x.csv", "--mapping", "nope", "--campaign", "c")
    path = write_csv(tmp_path / "r.csv", [["a"], ["b"]])
    with pytest.raises(CommandError, match=r"line 1, field 'segmentId'"):
        call_command("import_ratings", str(path), "--mapping", "wmt", "--campaign", "c")
    assert counts() == before
