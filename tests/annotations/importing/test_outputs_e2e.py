"""An E2E-style folder imported (annotations/importing/outputs.py): all or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.outputs import Upload, outputs_import, outputs_import_uploads
from annotations.models import Item, Output, System
from common.errors import ImportFileError
from tests.annotations.importing.conftest import MRS, make_e2e_folder
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


def test_a_single_tsv_with_the_generic_columns_is_read_as_the_csv_is(tmp_path: Path) -> None:
    """A TSV with item_id, input, system and output was refused as an E2E system file."""
    path = tmp_path / "outputs.tsv"
    path.write_text(
        "item_id\tinput\tsystem\toutput\n1\tname[A]\tsA\tA is a pub.\n1\tname[A]\tsB\tA.\n",
        encoding="utf-8",
    )
    campaign = CampaignFactory()
    imported = outputs_import(campaign=campaign, path=path)
    assert (imported.systems, imported.outputs) == (2, 2)
    assert Output.objects.get(system__label="sA").text == "A is a pub."


def test_an_uploaded_tsv_with_the_generic_columns_is_not_taken_for_a_system(
    tmp_path: Path,
) -> None:
    """Uploaded on the page, the same TSV became one E2E system named after the file."""
    data = "item_id\tinput\tsystem\toutput\n1\tname[A]\tsA\tA is a pub.\n1\tname[A]\tsB\tA.\n"
    campaign = CampaignFactory()
    (imported,) = outputs_import_uploads(
        campaign=campaign, uploads=[Upload("outputs.tsv", data.encode())]
    )
    assert imported.file == "outputs.tsv"
    assert sorted(campaign.systems.values_list("label", flat=True)) == ["sA", "sB"]


def test_a_single_tsv_without_them_is_refused_saying_what_would_do(tmp_path: Path) -> None:
    path = tmp_path / "system.tsv"
    path.write_text("mr\tref\nname[A]\tA is a pub.\n", encoding="utf-8")
    with pytest.raises(ImportFileError, match="without the columns item_id, input, system"):
        outputs_import(campaign=CampaignFactory(), path=path)
