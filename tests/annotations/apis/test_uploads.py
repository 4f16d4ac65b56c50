"""Uploads through the API (annotations/apis/uploads.py): the limit, a job, no server paths."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotations.models import ImportJob, Output
from annotations.services.campaigns import campaign_create
from tests.annotations.import_jobs import outputs_csv
from tests.annotations.importing.conftest import model_counts

pytestmark = pytest.mark.django_db


# The API takes the web page's path: the size limit, then a job when large.


def test_api_upload_over_the_limit_is_a_413_naming_the_file_and_writes_nothing(
    owner, settings, api_as
) -> None:
    settings.IMPORT_UPLOAD_MAX_BYTES = 500
    campaign = campaign_create(slug="pilot", owner=owner)
    data = outputs_csv(5, 20)
    assert len(data) > 500
    before = model_counts()
    response = api_as(owner).post(
        f"/api/campaigns/{campaign.slug}/outputs/",
        {"files": [SimpleUploadedFile("huge.csv", data)]},
        format="multipart",
    )
    assert response.status_code == 413, response.content
    body = response.json()
    assert body["code"] == "too_large" and body["file"] == "huge.csv"
    assert "huge.csv" in body["detail"] and "limited to" in body["detail"]
    assert model_counts() == before
    assert not ImportJob.objects.exists()


def test_api_large_upload_runs_as_a_job(
    owner, settings, django_capture_on_commit_callbacks, api_as
) -> None:
    settings.IMPORT_INLINE_MAX_BYTES = 1000
    campaign = campaign_create(slug="pilot", owner=owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as(owner).post(
            f"/api/campaigns/{campaign.slug}/outputs/",
            {"files": [SimpleUploadedFile("big.csv", outputs_csv(5, 40))]},
            format="multipart",
        )
    assert response.status_code == 202, response.content
    job = ImportJob.objects.get(campaign=campaign)
    assert response.json() == {
        "job": job.pk,
        "status": "pending",
        "url": reverse("annotations:designer-import-job", args=[campaign.slug, job.pk]),
        "api": reverse("api-job", args=[campaign.slug, job.pk]),
    }
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and job.created_by == owner
    assert Output.objects.filter(item__campaign=campaign).count() == 200


def test_api_small_upload_imports_during_the_request_without_server_paths(owner, api_as) -> None:
    campaign = campaign_create(slug="pilot", owner=owner)
    response = api_as(owner).post(
        f"/api/campaigns/{campaign.slug}/outputs/",
        {"files": [SimpleUploadedFile("small.csv", outputs_csv(2, 3))]},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert response.json()[0]["file"] == "small.csv" and response.json()[0]["outputs"] == 6
    assert not ImportJob.objects.exists()
    bad = api_as(owner).post(
        f"/api/campaigns/{campaign.slug}/outputs/",
        {"files": [SimpleUploadedFile("bad.csv", b"item_id,input,system\nm,x,s\n")]},
        format="multipart",
    )
    assert bad.status_code == 400 and bad.json()["file"] == "bad.csv"
    assert "/tmp" not in bad.content.decode()


def test_api_removes_a_drafts_outputs_and_refuses_once_launched(owner, api_as) -> None:
    from annotations.models import Campaign, Item

    campaign = campaign_create(slug="pilot", owner=owner)
    api = api_as(owner)
    api.post(
        f"/api/campaigns/{campaign.slug}/outputs/",
        {"files": [SimpleUploadedFile("o.csv", outputs_csv(3, 2))]},
    )
    assert Output.objects.filter(item__campaign=campaign).count() == 6
    answer = api.delete(f"/api/campaigns/{campaign.slug}/outputs/")
    assert answer.status_code == 200, answer.json()
    assert answer.json() == {"outputs": 6, "items": 2, "systems": 3, "tasks": 0}
    assert not Item.objects.filter(campaign=campaign).exists()
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE)
    refused = api.delete(f"/api/campaigns/{campaign.slug}/outputs/")
    assert refused.status_code == 400
    assert "only while the campaign is a draft" in refused.json()["detail"]
