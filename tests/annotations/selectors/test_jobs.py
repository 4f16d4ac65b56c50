"""Reads of import jobs (annotations/selectors/jobs.py): one by id within its campaign,
the active one of a kind, the progress a job's page shows; and the one definition of an
active job (``ImportJob.ACTIVE``) that the page and the build's reuse both follow."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from annotations.importing import jobs
from annotations.importing.jobs import import_job_create
from annotations.importing.outputs import Upload
from annotations.models import ImportJob
from annotations.selectors.jobs import (
    import_job_active,
    import_job_by_id,
    import_job_progress,
)
from annotations.services.campaigns import campaign_create
from tests.annotations.import_jobs import outputs_csv
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_a_job_is_found_in_its_campaign_only() -> None:
    mine, other = CampaignFactory(), CampaignFactory()
    job = ImportJob.objects.create(campaign=other, kind="outputs", filename="x.csv")
    assert import_job_by_id(other, job.pk) == job
    assert import_job_by_id(mine, job.pk) is None
    assert import_job_by_id(other, job.pk + 1) is None


def test_the_active_job_is_the_newest_pending_or_running_one_of_its_kind() -> None:
    campaign = CampaignFactory()
    assert ImportJob.ACTIVE == (ImportJob.Status.PENDING, ImportJob.Status.RUNNING)
    for status in ("done", "failed"):
        ImportJob.objects.create(campaign=campaign, kind="build", filename="t", status=status)
    ImportJob.objects.create(campaign=campaign, kind="outputs", filename="o")
    assert import_job_active(campaign=campaign, kind="build") is None
    running = ImportJob.objects.create(
        campaign=campaign, kind="build", filename="t", status="running"
    )
    assert import_job_active(campaign=campaign, kind="build") == running
    assert import_job_active(campaign=CampaignFactory(), kind="build") is None


def test_progress_of_a_running_job_comes_from_the_cache() -> None:
    campaign = CampaignFactory()
    job = import_job_create(
        campaign=campaign, uploads=[Upload("a.csv", outputs_csv(1, 1))], queue=False
    )
    ImportJob.objects.filter(pk=job.pk).update(status="running")
    job.refresh_from_db()
    assert import_job_progress(job=job) == (0, 0)
    progress = jobs._JobProgress(job.pk)
    with transaction.atomic():  # as during the import: the row cannot show it
        progress(30, 120)
    job.refresh_from_db()
    assert (job.rows_done, job.rows_total) == (0, 0)
    assert import_job_progress(job=job) == (30, 120)
    progress.close()
    assert import_job_progress(job=job) == (0, 0)


def test_the_page_and_the_builds_reuse_follow_the_one_definition(
    client, owner, monkeypatch
) -> None:
    campaign = campaign_create(slug="pilot", owner=owner)
    job = ImportJob.objects.create(campaign=campaign, kind="build", filename="t")
    url = reverse("annotations:designer-import-job", args=[campaign.slug, job.pk])
    assert client.get(url).context["active"] is True
    assert import_job_active(campaign=campaign, kind="build") == job
    # Were a pending job not active, neither would say so.
    monkeypatch.setattr(ImportJob, "ACTIVE", (ImportJob.Status.RUNNING,))
    assert client.get(url).context["active"] is False
    assert import_job_active(campaign=campaign, kind="build") is None
