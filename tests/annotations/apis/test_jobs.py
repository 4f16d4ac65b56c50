"""The background-jobs API (annotations/apis/jobs.py): a large upload's 202 points to a
job an API client can follow with its token (the page it named redirected a token to
the sign-in page)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.annotations.draft_campaign import _draft

pytestmark = pytest.mark.django_db


def _rows(n: int) -> bytes:
    lines = ["item_id,input,system,output"]
    lines += [f"i{k},name[Place {k}],s{k % 3},Place {k} is a pub." for k in range(n)]
    return ("\n".join(lines) + "\n").encode()


def test_a_large_uploads_job_is_followed_through_the_api(people, owner_api, settings):
    settings.IMPORT_INLINE_MAX_BYTES = 100  # every upload a job
    settings.JOBS_IN_THREAD = False
    campaign = _draft(people["owner"])
    accepted = owner_api.post(
        f"/api/campaigns/{campaign.slug}/outputs/",
        {"files": [SimpleUploadedFile("big.csv", _rows(30))]},
        format="multipart",
    )
    assert accepted.status_code == 202, accepted.content
    body = accepted.json()
    job = owner_api.get(body["api"])
    assert job.status_code == 200, job.content
    data = job.json()
    assert data["id"] == body["job"] and data["kind"] and data["page"] == body["url"]
    assert data["status"] in ("pending", "running", "done", "failed")
    other = owner_api.get(f"/api/campaigns/{campaign.slug}/jobs/{body['job'] + 1000}/")
    assert other.status_code == 404
