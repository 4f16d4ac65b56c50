"""An import error over the API is JSON naming file, line and field."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from annotations.models import Output

pytestmark = pytest.mark.django_db


def test_import_error_is_json_with_file_line_field(designer_api):
    client, campaign, _ = designer_api
    before = Output.objects.filter(item__campaign=campaign).count()
    bad = b"item_id,input,system,output\n9,name[A],s9,\n"
    response = client.post(
        f"/api/campaigns/{campaign.slug}/outputs/",
        {"files": [SimpleUploadedFile("bad.csv", bad)]},
        format="multipart",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["file"] == "bad.csv" and body["line"] == 2 and body["field"] == "output"
    assert "bad.csv, line 2" in body["detail"]
    assert Output.objects.filter(item__campaign=campaign).count() == before
