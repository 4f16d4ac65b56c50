"""Bytes that are not text (annotations/importing/outputs.py): refused naming file, line and
field, never a server path."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.outputs import Upload, outputs_import, outputs_import_uploads
from common.errors import ImportFileError
from tests.annotations.bad_bytes import CASES, GOOD
from tests.annotations.importing.conftest import model_counts
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_service_refuses_bad_bytes_naming_file_line_field(tmp_path: Path, case, suffix) -> None:
    data, line, field, words = CASES[case]
    if suffix == ".jsonl":
        field = ""  # JSONL has no columns to name before the JSON is read
    path = tmp_path / f"outputs{suffix}"
    path.write_bytes(data)
    campaign = CampaignFactory()
    before = model_counts()
    with pytest.raises(ImportFileError) as info:
        outputs_import(campaign=campaign, path=path)
    err = info.value
    assert (err.file, err.line, err.field) == (str(path), line, field)
    assert words in err.reason
    assert model_counts() == before


@pytest.mark.parametrize("case", CASES)
def test_e2e_tsv_folder_refuses_bad_bytes(tmp_path: Path, case) -> None:
    data, line, field, words = CASES[case]
    folder = tmp_path / "release"
    folder.mkdir()
    (folder / "alpha.tsv").write_text("MR\toutput\nname[A]\tA is here.\n", encoding="utf-8")
    (folder / "beta.tsv").write_bytes(data.replace(b",", b"\t"))
    campaign = CampaignFactory()
    before = model_counts()
    with pytest.raises(ImportFileError) as info:
        outputs_import(campaign=campaign, path=folder)
    assert info.value.file == str(folder / "beta.tsv")
    assert (info.value.line, info.value.field) == (line, field)
    assert words in info.value.reason
    assert model_counts() == before


@pytest.mark.parametrize("case", CASES)
def test_upload_service_names_the_uploaded_file_never_a_server_path(case) -> None:
    data = CASES[case][0]
    campaign = CampaignFactory()
    before = model_counts()
    good = Upload(name="good.csv", data=GOOD.encode())
    with pytest.raises(ImportFileError) as info:
        outputs_import_uploads(campaign=campaign, uploads=[good, Upload("bad.csv", data)])
    err = info.value
    assert err.file == "bad.csv"
    assert "/tmp" not in str(err) and "humaneval-upload" not in str(err)
    assert model_counts() == before
