"""Large uploads imported as a background job (annotations/importing/jobs.py) with
progress, and the sweep of lost jobs."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from annotations.importing import jobs
from annotations.importing.jobs import import_job_create, import_job_run
from annotations.importing.outputs import Upload
from annotations.models import Campaign, ImportJob, Output
from annotations.selectors.jobs import import_job_progress_key
from annotations.services import bulk
from tests.annotations.import_jobs import _job, outputs_csv
from tests.annotations.importing.conftest import model_counts
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


HEADER = "item_id,input,system,output\n"


@pytest.fixture(autouse=True)
def _jobs_in_this_thread(settings):
    settings.JOBS_IN_THREAD = False


def test_job_imports_and_records_the_summary(django_capture_on_commit_callbacks) -> None:
    campaign = CampaignFactory()
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_create(
            campaign=campaign,
            uploads=[
                Upload("a.csv", outputs_csv(3, 10)),
                Upload("b.csv", outputs_csv(1, 10, prefix="t")),
            ],
        )
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE, job.error
    assert (job.rows_done, job.rows_total) == (40, 40)
    assert job.summary["outputs"] == 40 and job.summary["systems"] == 4
    assert job.summary["files"] == ["a.csv", "b.csv"]
    assert job.summary["notes"] == []  # nothing written the other way than its language
    assert bytes(job.data) == b""  # the uploaded bytes are dropped once the job ends
    assert Output.objects.filter(item__campaign=campaign).count() == 40
    assert job.started_at is not None and job.finished_at is not None
    # Running it again does nothing.
    assert import_job_run(job=job).status == ImportJob.Status.DONE
    assert Output.objects.filter(item__campaign=campaign).count() == 40


def test_a_jobs_summary_notes_outputs_written_the_other_way(
    django_capture_on_commit_callbacks,
) -> None:
    campaign = CampaignFactory()
    arabic = (HEADER + "1,in,s0,أرومي مقهى.\n1,in,s1,Aromi is a pub.\n").encode()
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_create(campaign=campaign, uploads=[Upload("ar.csv", arabic)])
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE, job.error
    (note,) = job.summary["notes"]
    assert note.startswith("1 output in 'en' looks written right to left")


def test_job_with_a_bad_file_fails_naming_it_and_writes_nothing(
    django_capture_on_commit_callbacks,
) -> None:
    campaign = CampaignFactory()
    before = model_counts()
    bad = HEADER.encode() + b"m1,name[A],s1,caf\xe9\n"
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_create(
            campaign=campaign,
            uploads=[Upload("good.csv", outputs_csv(2, 5)), Upload("bad.csv", bad)],
        )
    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED
    assert job.summary == {
        "file": "bad.csv",
        "line": 2,
        "field": "output",
        "reason": job.summary["reason"],
    }
    assert "not UTF-8" in job.summary["reason"]
    assert "/tmp" not in job.error and "humaneval-upload" not in job.error
    assert bytes(job.data) == b""
    after = model_counts()
    assert {k: v for k, v in after.items() if k != "ImportJob"} == {
        k: v for k, v in before.items() if k != "ImportJob"
    }


def test_job_refused_when_the_campaign_went_live_meanwhile() -> None:
    campaign = CampaignFactory()
    job = import_job_create(
        campaign=campaign, uploads=[Upload("a.csv", outputs_csv(2, 2))], queue=False
    )
    Campaign.objects.filter(pk=campaign.pk).update(status="live")
    job = import_job_run(job=job)
    assert job.status == ImportJob.Status.FAILED and "is live" in job.error
    assert not Output.objects.filter(item__campaign=campaign).exists()


def test_job_progress_moves_while_it_writes(monkeypatch) -> None:
    """Progress is reported chunk by chunk while the one transaction writes; the page
    reads it (here from the cache: SQLite allows no second writer during the import)."""
    monkeypatch.setattr(bulk, "INSERT_CHUNK", 25)
    seen: list[tuple[int, int]] = []
    real_set = cache.set

    def spy(key, value, *args, **kwargs):
        if key.startswith("humaneval:import-job:"):
            seen.append(value)
        return real_set(key, value, *args, **kwargs)

    monkeypatch.setattr(jobs.cache, "set", spy)
    monkeypatch.setattr(jobs._JobProgress, "__call__", _unthrottled(jobs._JobProgress.__call__))
    campaign = CampaignFactory()
    job = import_job_create(
        campaign=campaign, uploads=[Upload("a.csv", outputs_csv(4, 50))], queue=False
    )
    job = import_job_run(job=job)
    assert job.status == ImportJob.Status.DONE
    assert seen[0] == (0, 200)
    assert [done for done, _ in seen] == [0, 25, 50, 75, 100, 125, 150, 175, 200]
    assert all(total == 200 for _, total in seen)


def _unthrottled(call):
    def wrapper(self, done, total):
        self.last = 0.0
        return call(self, done, total)

    return wrapper


# Lost jobs: a sweep, as for ranking runs, fails them with a reason.


def test_sweep_fails_running_jobs_past_the_limit_and_pending_jobs_never_picked_up(
    settings,
) -> None:
    from annotations.importing.jobs import import_jobs_sweep

    settings.IMPORT_JOB_STALE_AFTER = 600
    settings.IMPORT_JOB_PENDING_TIMEOUT = 3600
    campaign = CampaignFactory()
    lost = _job(campaign, "running", started_ago=601, created_ago=700)
    busy = _job(campaign, "running", started_ago=30, created_ago=40)
    queued_long_ago = _job(campaign, "pending", created_ago=3601)
    queued = _job(campaign, "pending", created_ago=10)
    done = _job(campaign, "done", created_ago=99999)
    cache.set(import_job_progress_key(lost.pk), (5, 10))
    assert import_jobs_sweep() == sorted([lost.pk, queued_long_ago.pk])
    for job in (lost, busy, queued_long_ago, queued, done):
        job.refresh_from_db()
    assert lost.status == queued_long_ago.status == ImportJob.Status.FAILED
    assert "Not finished 10 min after it started" in lost.error and "was lost" in lost.error
    assert "upload the files again" in lost.error
    assert "Not started within 1 h" in queued_long_ago.error
    assert bytes(lost.data) == b"" and lost.finished_at is not None
    assert cache.get(import_job_progress_key(lost.pk)) is None
    assert (busy.status, queued.status, done.status) == ("running", "pending", "done")
    assert bytes(busy.data) != b""
    assert import_jobs_sweep() == []  # nothing left to sweep


def test_sweep_limits_to_a_campaign_and_takes_explicit_limits() -> None:
    from annotations.importing.jobs import import_jobs_sweep

    mine, other = CampaignFactory(), CampaignFactory()
    a = _job(mine, "running", started_ago=120)
    b = _job(other, "running", started_ago=120)
    assert import_jobs_sweep(stale_after=60, campaign=mine) == [a.pk]
    b.refresh_from_db()
    assert b.status == ImportJob.Status.RUNNING
    assert import_jobs_sweep(stale_after=600) == []


def test_a_job_is_dispatched_by_task_name(django_capture_on_commit_callbacks) -> None:
    """The services never import annotations.tasks: the task is looked up by name."""
    from celery import current_app

    assert jobs.RUN_TASK in current_app.tasks
    campaign = CampaignFactory()
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_create(campaign=campaign, uploads=[Upload("a.csv", outputs_csv(2, 2))])
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE
