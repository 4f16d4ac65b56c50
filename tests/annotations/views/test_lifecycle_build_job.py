"""Building a large campaign's tasks runs as a background job (the import jobs'
mechanism: ``annotations.importing.jobs``) with a progress page, not inside the request."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from annotations.models import Campaign, ImportJob, Task
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset, criterion_rankme_set
from annotations.services.outputs import outputs_store
from tests.annotations.large_campaign import _campaign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_process(settings):
    settings.JOBS_IN_THREAD = False


def test_a_large_build_answers_at_once_with_a_job_page_that_shows_the_result(
    client, settings, django_capture_on_commit_callbacks
):
    owner = User.objects.create(username="owner")
    campaign = _campaign(owner)
    settings.BUILD_INLINE_MAX_TASKS = 100  # 20 items x 3 criteria x 2 tasks = 120
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post(reverse("annotations:designer-build", args=[campaign.slug]))
    job = ImportJob.objects.get(kind="build")
    url = reverse("annotations:designer-import-job", args=[campaign.slug, job.pk])
    # The request only queued the job: no task yet, the page polls its progress.
    assert response.status_code == 302 and response["Location"] == url
    assert not Task.objects.exists() and len(queued) == 1
    waiting = client.get(url).text
    assert "Building the tasks" in waiting and "Waiting to start" in waiting
    assert 'hx-trigger="every 1s"' in waiting
    # A second click while it waits goes to the same job.
    again = client.post(reverse("annotations:designer-build", args=[campaign.slug]))
    assert again["Location"] == url and ImportJob.objects.count() == 1
    queued[0]()  # the worker picks it up
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and job.rows_done == job.rows_total == 120
    assert Task.objects.count() == 120
    done = client.get(url).text
    assert "Tasks built" in done and "Built 120 tasks" in done
    # The page under the job's address says the build is over, heading and title too;
    # so does the part the polling swaps in.
    assert "Building the tasks" not in done
    assert "The tasks are built</h2>" in done and "<title>Tasks built ·" in done
    polled = client.get(url, headers={"HX-Request": "true"}).text
    assert "The tasks are built</h2>" in polled and "Building the tasks" not in polled


def test_a_build_that_cannot_start_is_refused_at_once(client, settings):
    owner = User.objects.create(username="owner")
    campaign = _campaign(owner)
    Campaign.objects.filter(pk=campaign.pk).update(consent_text="", outputs_per_task=9)
    settings.BUILD_INLINE_MAX_TASKS = 0
    client.force_login(owner)
    response = client.post(reverse("annotations:designer-build", args=[campaign.slug]), follow=True)
    assert "Outputs per task" in response.text and not ImportJob.objects.exists()


def test_the_e2e_set_up_1_build_answers_at_once_and_the_plan_counts_pages(
    client, e2e_dir, django_capture_on_commit_callbacks
):
    """The walk-through's study: the 21 released systems on 630 MRs, set-up 1 with three
    criteria (9,450 tasks). The request queues the job; the job builds them all."""
    import time

    from annotations.selectors.plan import campaign_plan
    from tests.annotations.services.test_tasks import _e2e_rows

    owner = User.objects.create(username="owner")
    campaign = campaign_create(
        slug="e2e", name="E2E", owner=owner, outputs_per_task=5, setup="together",
        tasks_per_worker=10, judgements_per_task=3, consent_text="I agree.",
        attention_check_rate=0.1, repeat_rate=0.1,
    )  # fmt: skip
    for preset in ("quality", "naturalness", "informativeness"):
        criterion = criterion_from_preset(campaign=campaign, preset=preset)
        criterion_rankme_set(criterion=criterion, standard_input="x", standard_text="y")
    outputs_store(campaign=campaign, rows=_e2e_rows(e2e_dir))
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        started = time.perf_counter()
        response = client.post(reverse("annotations:designer-build", args=[campaign.slug]))
        answered = time.perf_counter() - started
    assert response.status_code == 302 and "/imports/" in response["Location"]
    assert not Task.objects.exists()
    started = time.perf_counter()
    queued[0]()
    built = time.perf_counter() - started
    job = ImportJob.objects.get(kind="build")
    assert job.status == ImportJob.Status.DONE, job.error
    assert job.summary["tasks"] == Task.objects.count() == 9450
    print(
        f"\nbuild request answered in {answered:.2f} s; the job built 9,450 tasks in {built:.1f} s"
    )
    assert answered < built
    plan = campaign_plan(campaign=campaign)
    # 9,450 tasks x 3 judgements = 28,350 judgements = 9,450 pages of 3 criteria; with the
    # checks (10% + 10%) 11,813 pages, 1,182 workers of 10 pages (the old plan: 3,544).
    assert (plan.judgements, plan.regular_pages) == (28350, 9450)
    assert (plan.pages, plan.workers) == (11813, 1182)
    print(f"plan: {plan.pages:,} pages, {plan.workers:,} workers of 10 pages")


def test_a_build_sent_twice_rebuilds_nothing(client):
    """The build form names the design the page showed ("none", or the seed of the tasks
    built): a second send (refresh, a second tab) after the first built the tasks is
    refused and keeps them; before, it deleted them and built others with a new seed."""
    owner = User.objects.create(username="owner")
    campaign = _campaign(owner)
    client.force_login(owner)
    page = reverse("annotations:designer-campaign", args=[campaign.slug])
    build = reverse("annotations:designer-build", args=[campaign.slug])
    assert '<input type="hidden" name="design" value="none">' in client.get(page).text
    assert client.post(build, {"design": "none"}).status_code == 302
    campaign.refresh_from_db()
    seed, tasks = campaign.task_seed, set(Task.objects.values_list("pk", flat=True))
    again = client.post(build, {"design": "none"}, follow=True)
    assert "Nothing was rebuilt: the tasks were built meanwhile" in again.text
    campaign.refresh_from_db()
    assert campaign.task_seed == seed and set(Task.objects.values_list("pk", flat=True)) == tasks
    # The page now names the design it shows: a rebuild from it is a rebuild.
    assert f'name="design" value="{seed}"' in client.get(page).text
    client.post(build, {"design": str(seed)})
    assert not tasks & set(Task.objects.values_list("pk", flat=True))
