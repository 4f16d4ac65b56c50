"""Uploads on the page (annotations/views/uploads.py): a large one runs as a job with a page
that polls its progress, a small one imports during the request."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotations.models import ImportJob, Output, Task
from annotations.services.campaigns import campaign_create
from tests.annotations.import_jobs import outputs_csv
from tests.annotations.importing.conftest import model_counts
from tests.factories import CriterionFactory

pytestmark = pytest.mark.django_db


HX = {"HTTP_HX_REQUEST": "true"}


def _upload(client, campaign, *files, **extra):
    return client.post(
        reverse("annotations:designer-upload", args=[campaign.slug]),
        {"files": list(files)},
        **extra,
    )


def test_large_upload_runs_as_a_job_and_its_page_shows_the_result(
    client, owner, settings, django_capture_on_commit_callbacks
) -> None:
    settings.IMPORT_INLINE_MAX_BYTES = 1000
    campaign = campaign_create(slug="pilot", owner=owner)
    data = outputs_csv(5, 40)
    assert len(data) > 1000
    with django_capture_on_commit_callbacks(execute=True):
        response = _upload(client, campaign, SimpleUploadedFile("big.csv", data))
    job = ImportJob.objects.get(campaign=campaign)
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "annotations:designer-import-job", args=[campaign.slug, job.pk]
    )
    assert Output.objects.filter(item__campaign=campaign).count() == 200
    page = client.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 200
    assert "Imported 200 outputs: 5 new systems, 40 new items" in html
    assert "hx-get" not in html  # finished: no more polling
    partial = client.get(response["Location"], **HX).content.decode()
    assert partial.lstrip().startswith('<div id="import-job"') and "Imported 200" in partial


def test_small_upload_imports_during_the_request(client, owner) -> None:
    campaign = campaign_create(slug="pilot", owner=owner)
    response = _upload(client, campaign, SimpleUploadedFile("small.csv", outputs_csv(2, 3)))
    assert response.status_code == 302
    assert response["Location"] == reverse("annotations:designer-campaign", args=[campaign.slug])
    assert not ImportJob.objects.exists()
    assert Output.objects.filter(item__campaign=campaign).count() == 6


def test_upload_messages_count_in_words_and_the_help_text_shows_whole(client, owner) -> None:
    campaign = campaign_create(slug="pilot", owner=owner)
    page = client.get(reverse("annotations:designer-campaign", args=[campaign.slug]))
    # Django writes a field's help text as HTML: "<system>.tsv" lost its "<system>".
    assert "or the .tsv files of an E2E-style release, one per system" in page.content.decode()
    one = _upload(client, campaign, SimpleUploadedFile("one.csv", outputs_csv(1, 1)), follow=True)
    assert "Imported 1 output: 1 new system, 1 new item." in one.content.decode()
    more = _upload(
        client, campaign, SimpleUploadedFile("more.csv", outputs_csv(2, 3, prefix="t")), follow=True
    )
    assert "Imported 6 outputs: 2 new systems, 2 new items." in more.content.decode()


def test_running_job_page_polls_and_shows_moving_progress(client, owner) -> None:
    campaign = campaign_create(slug="pilot", owner=owner)
    job = ImportJob.objects.create(campaign=campaign, kind="outputs", filename="big.csv")
    url = reverse("annotations:designer-import-job", args=[campaign.slug, job.pk])
    html = client.get(url).content.decode()
    assert "Waiting to start" in html and f'hx-get="{url}"' in html
    ImportJob.objects.filter(pk=job.pk).update(status="running")
    html = client.get(url, **HX).content.decode()
    assert "Reading and checking the files" in html and 'hx-trigger="every 1s"' in html
    cache.set(f"humaneval:import-job:{job.pk}:progress", (250, 1000))
    html = client.get(url, **HX).content.decode()
    assert "Writing outputs: 250 of 1,000 (25%)" in html
    assert '<progress class="import-progress" max="1000" value="250"' in html
    cache.set(f"humaneval:import-job:{job.pk}:progress", (750, 1000))
    assert 'value="750"' in client.get(url, **HX).content.decode()
    cache.delete(f"humaneval:import-job:{job.pk}:progress")


def test_failed_job_page_names_file_line_field(
    client, owner, settings, django_capture_on_commit_callbacks
) -> None:
    settings.IMPORT_INLINE_MAX_BYTES = 10
    campaign = campaign_create(slug="pilot", owner=owner)
    bad = outputs_csv(2, 5) + b"m9,name[X],s1,\x00\n"
    with django_capture_on_commit_callbacks(execute=True):
        response = _upload(client, campaign, SimpleUploadedFile("bad.csv", bad))
    html = client.get(response["Location"]).content.decode()
    assert "Nothing was imported" in html
    assert "<code>bad.csv</code>" in html and '<td class="num">12</td>' in html
    assert "<code>output</code>" in html and "NUL byte" in html
    assert "/tmp" not in html
    assert not Output.objects.filter(item__campaign=campaign).exists()


def test_job_pages_of_other_campaigns_are_404(client, owner) -> None:
    mine = campaign_create(slug="mine", owner=owner)
    other = campaign_create(slug="other")
    job = ImportJob.objects.create(campaign=other, kind="outputs", filename="x.csv")
    url = reverse("annotations:designer-import-job", args=[mine.slug, job.pk])
    assert client.get(url).status_code == 404
    url = reverse("annotations:designer-import-job", args=[other.slug, job.pk])
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("status", ["live", "paused", "closed", "archived"])
def test_upload_into_a_campaign_past_draft_is_refused_with_a_409(client, owner, status) -> None:
    campaign = campaign_create(slug="pilot", owner=owner)
    campaign.status = status
    campaign.save(update_fields=["status"])
    before = model_counts()
    response = _upload(client, campaign, SimpleUploadedFile("o.csv", outputs_csv(2, 2)))
    assert response.status_code == 409
    html = response.content.decode()
    assert "Nothing was imported" in html
    assert f"is {status}: outputs can only be added to a draft campaign" in html
    assert model_counts() == before


def test_a_system_the_built_tasks_do_not_show_is_named(client, owner) -> None:
    campaign = campaign_create(slug="pilot", owner=owner)
    _upload(client, campaign, SimpleUploadedFile("a.csv", outputs_csv(2, 2)))
    criterion = CriterionFactory(campaign=campaign)
    Task.objects.create(campaign=campaign, criterion=criterion, item=campaign.items.earliest("id"))
    response = _upload(
        client, campaign, SimpleUploadedFile("b.csv", outputs_csv(1, 2, prefix="late")), follow=True
    )
    html = response.content.decode()
    assert "no task shows late0 yet" in html and "never be judged" in html
