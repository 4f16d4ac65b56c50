"""The E2E outputs folder parser (annotations/importing/parsers/e2e_outputs.py): the released
quirks, participant prefixes, systems named by their files."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.parsers.e2e_outputs import (
    Participant,
    parse_e2e_outputs,
    participant_for,
)
from common.errors import ImportFileError
from tests.annotations.importing.conftest import MRS, SYSTEMS, make_e2e_folder, output_text

pytestmark = pytest.mark.django_db


def test_released_quirks_are_accepted(tmp_path: Path) -> None:
    """BOM, CR CR LF line ends, quoted fields, and MRs and outputs in single quotes."""
    folder = tmp_path / "e2e"
    folder.mkdir()
    (folder / "a.tsv").write_bytes(
        (
            "\ufeffMR\toutput\r\r\n"
            + "".join(f'"{mr}"\t{output_text("a", n)}\r\r\n' for n, mr in enumerate(MRS, 1))
        ).encode()
    )
    (folder / "b.tsv").write_text(
        "MR\toutput\n" + "".join(f"'{mr}'\t'B {n}.'\n" for n, mr in enumerate(MRS, 1)),
        encoding="utf-8",
    )
    parsed = parse_e2e_outputs(folder)
    texts = {(r.system, r.item_id): r.text for r in parsed.rows}
    assert texts[("b", "2")] == "B 2."
    assert texts[("a", "1")] == output_text("a", 1)
    assert {r.input for r in parsed.rows} == set(MRS)
    assert [line for _, line in parsed.where[:2]] == [2, 3]


def test_participant_prefix_match() -> None:
    participants = [
        Participant("tr", "TR", ""),
        Participant("slug", "Slug", ""),
        Participant("forge", "F", ""),
    ]

    def label(system_id: str) -> str | None:
        participant = participant_for(system_id, participants)
        return participant.label if participant is not None else None

    assert label("tr2") == "tr"
    assert label("slug-alt") == "slug"
    assert label("forge3") == "forge"
    assert participant_for("trx", participants) is None
    assert participant_for("tuda", participants) is None


def test_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(ImportFileError, match=r"no <system>\.tsv"):
        parse_e2e_outputs(tmp_path)


def test_systems_are_the_file_names(tmp_path: Path) -> None:
    parsed = parse_e2e_outputs(make_e2e_folder(tmp_path / "e2e", ratings=False))
    assert sorted({r.system for r in parsed.rows}) == sorted(SYSTEMS)
