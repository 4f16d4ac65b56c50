"""The upload page refuses bad bytes with a 400 page, too large a file with a 413, no file with a 400."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.annotations.bad_bytes import CASES, GOOD
from tests.annotations.designer_data import users
from tests.annotations.importing.conftest import model_counts

pytestmark = pytest.mark.django_db


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
