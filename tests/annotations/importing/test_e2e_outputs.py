from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.outputs import outputs_import
from annotations.importing.parsers.e2e_outputs import (
    Participant,
    parse_e2e_outputs,
    participant_for,
)
from annotations.models import Item, Output, System
from common.errors import ImportFileError
from tests.annotations.importing.conftest import MRS, SYSTEMS, make_e2e_folder, output_text
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_good_folder(tmp_path: Path) -> None:
    folder = make_e2e_folder(tmp_path / "e2e", ratings=False)
    campaign = CampaignFactory()
    summary = outputs_import(campaign=campaign, path=folder)
    assert (summary.systems, summary.items, summary.outputs) == (5, 2, 10)
    assert summary.identical_groups == 1
    assert summary.systems_named == 3  # alpha exactly; beta1 and beta2 by prefix
    assert list(Item.objects.filter(campaign=campaign).values_list("external_id", "input")) == [
        ("1", MRS[0]),
        ("2", MRS[1]),
    ]
    beta2 = System.objects.get(campaign=campaign, label="beta2")
    assert (beta2.name, beta2.metadata["affiliation"]) == ("Beta Team", "Uni B")
    assert System.objects.get(campaign=campaign, label="gamma").name == ""
    gamma = Output.objects.get(item__external_id="1", system__label="gamma")
    # files are read in label order, so delta's output came first
    assert gamma.canonical == Output.objects.get(item__external_id="1", system__label="delta")


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


def _folder_with(tmp_path: Path, name: str, content: str) -> Path:
    folder = make_e2e_folder(tmp_path / "e2e", ratings=False)
    (folder / "system_outputs" / name).write_text(content, encoding="utf-8")
    return folder


BAD = {
    "misaligned": ("gamma.tsv", f"MR\toutput\n{MRS[1]}\tx\n{MRS[0]}\ty\n", 2, "MR"),
    "missing row": ("gamma.tsv", f"MR\toutput\n{MRS[0]}\tx\n", 3, "MR"),
    "header": ("gamma.tsv", f"mr\ttext\n{MRS[0]}\tx\n{MRS[1]}\ty\n", 1, "mr"),
    "empty output": ("gamma.tsv", f"MR\toutput\n{MRS[0]}\tx\n{MRS[1]}\t \n", 3, "output"),
    "columns": ("gamma.tsv", f"MR\toutput\n{MRS[0]}\tx\textra\n{MRS[1]}\ty\n", 2, "column 3"),
    "one column": ("gamma.tsv", f"MR\toutput\n{MRS[0]}\n{MRS[1]}\ty\n", 2, "output"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_folder_names_file_line_field_and_writes_nothing(tmp_path: Path, counts, case) -> None:
    name, content, line, field = BAD[case]
    folder = _folder_with(tmp_path, name, content)
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError) as info:
        outputs_import(campaign=campaign, path=folder)
    err = info.value
    expected_file = str(folder / "system_outputs" / name)
    assert (err.file, err.line, err.field) == (expected_file, line, field)
    assert expected_file in str(err) and f"line {line}" in str(err) and f"'{field}'" in str(err)
    assert counts() == before


def test_bad_participants_writes_nothing(tmp_path: Path, counts) -> None:
    folder = make_e2e_folder(tmp_path / "e2e", ratings=False)
    (folder / "participants.tsv").write_text(
        "label\tname\taffiliation\n\tNobody\tX\n", encoding="utf-8"
    )
    campaign = CampaignFactory()
    before = counts()
    with pytest.raises(ImportFileError) as info:
        outputs_import(campaign=campaign, path=folder)  # outputs are stored before this fails
    assert (info.value.file, info.value.line, info.value.field) == (
        str(folder / "participants.tsv"),
        2,
        "label",
    )
    assert counts() == before


def test_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(ImportFileError, match=r"no <system>\.tsv"):
        parse_e2e_outputs(tmp_path)


def test_systems_are_the_file_names(tmp_path: Path) -> None:
    parsed = parse_e2e_outputs(make_e2e_folder(tmp_path / "e2e", ratings=False))
    assert sorted({r.system for r in parsed.rows}) == sorted(SYSTEMS)
