"""Files that are not UTF-8 text, empty or too large: a 4xx naming the file, the line
and the field, nothing written, never a server path.

Each case goes through the importer service (a file on disk, as the CLI reads it) and
through the web upload view.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotations.importing.outputs import Upload, outputs_import, outputs_import_uploads
from common.errors import ImportFileError
from tests.annotations.designer_data import users
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


@pytest.fixture
def owner_client(client):
    people = users()
    client.force_login(people["owner"])
    return client, people["owner"]


def _post(client, campaign, *files):
    return client.post(
        reverse("annotations:designer-upload", args=[campaign.slug]), {"files": list(files)}
    )


@pytest.mark.parametrize("case", CASES)
def test_web_upload_refuses_bad_bytes_with_a_400_page(owner_client, case) -> None:
    client, owner = owner_client
    from annotations.services.campaigns import campaign_create

    campaign = campaign_create(slug="pilot", owner=owner)
    data, line, field, words = CASES[case]
    before = model_counts()
    response = _post(
        client,
        campaign,
        SimpleUploadedFile("a-good.csv", GOOD.encode()),
        SimpleUploadedFile("b-bad.csv", data),
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Nothing was imported" in html
    assert "<code>b-bad.csv</code>" in html
    assert f'<td class="num">{line if line else "—"}</td>' in html
    if field:
        assert f"<code>{field}</code>" in html
    assert words in html
    assert "/tmp" not in html and "humaneval-upload" not in html
    assert model_counts() == before


def test_web_upload_over_the_limit_is_a_413_naming_the_file(owner_client, settings) -> None:
    client, owner = owner_client
    from annotations.services.campaigns import campaign_create

    settings.IMPORT_UPLOAD_MAX_BYTES = 1024 * 1024
    campaign = campaign_create(slug="pilot", owner=owner)
    big = GOOD.encode() + b"".join(
        f"m{n},name[N{n}],s1,Output number {n} of a long file.\n".encode() for n in range(40000)
    )
    assert len(big) > 1024 * 1024
    before = model_counts()
    response = _post(client, campaign, SimpleUploadedFile("huge.csv", big))
    assert response.status_code == 413
    html = response.content.decode()
    assert "<code>huge.csv</code>" in html and "limited to 1.0 MB" in html
    assert "/tmp" not in html
    assert model_counts() == before
    # Several files under the limit each but over it together are refused too.
    half = big[: 700 * 1024].rsplit(b"\n", 1)[0] + b"\n"
    response = _post(
        client,
        campaign,
        SimpleUploadedFile("part1.csv", half),
        SimpleUploadedFile("part2.csv", half),
    )
    assert response.status_code == 413
    assert "together" in response.content.decode()
    assert model_counts() == before


def test_web_upload_without_files_is_a_400(owner_client) -> None:
    client, owner = owner_client
    from annotations.services.campaigns import campaign_create

    campaign = campaign_create(slug="pilot", owner=owner)
    response = client.post(reverse("annotations:designer-upload", args=[campaign.slug]), {})
    assert response.status_code == 400
    assert "Choose at least one file" in response.content.decode()


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
