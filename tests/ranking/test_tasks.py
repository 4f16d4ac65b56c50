"""Ranking runs through Celery: in-process (eager) everywhere, and through a real broker and
worker process in CI (``HUMANEVAL_CELERY_WORKER=1``, set by .ci/run)."""

import os
import time

import pytest
from django.conf import settings

from ranking.models import RankingRun
from ranking.services.runs import ranking_run_create
from tests.ranking.planted import planted_campaign

STRENGTHS = [60.0, 30.0, 0.0, -30.0, -60.0, -90.0]


@pytest.mark.django_db
def test_run_queued_on_commit_computes_and_stores(django_capture_on_commit_callbacks):
    campaign, criterion = planted_campaign(strengths=STRENGTHS, n_judgements=60, seed=3)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        run = ranking_run_create(campaign=campaign, criterion=criterion, runs=20, seed=5)
        assert run.status == RankingRun.Status.PENDING
    assert len(callbacks) == 1
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE, run.error
    assert run.progress == 1.0
    assert run.n_judgements == 60
    best = run.results.order_by("-value").first()
    assert best is not None and best.system.label == "s0"


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_run_travels_through_the_broker_to_a_real_worker():
    if os.environ.get("HUMANEVAL_CELERY_WORKER") != "1":
        pytest.skip(
            "needs a real Celery worker and broker (run by .ci/run: HUMANEVAL_CELERY_WORKER=1)"
        )
    from humaneval.celery import app

    assert not app.conf.task_always_eager, "this test must not run tasks in-process"
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    campaign, criterion = planted_campaign(
        strengths=STRENGTHS, n_judgements=60, seed=4
    )  # every system over the minimum of 30 judgements
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=30, seed=9)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.status in (RankingRun.Status.DONE, RankingRun.Status.FAILED):
            break
        time.sleep(0.25)
    assert run.status == RankingRun.Status.DONE, f"status {run.status}: {run.error}"
    assert run.results.count() == len(STRENGTHS)
    assert run.fingerprint and run.seconds is not None and run.seconds > 0
    # The worker process computed it, not this one: nothing ran eagerly here.
    assert run.started_at is not None and run.finished_at is not None


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_run_computes_in_a_background_thread(settings, monkeypatch):
    """The embedded set-up: the request that starts a run returns at once."""
    import threading

    from ranking import tasks
    from ranking.services import compute

    settings.JOBS_IN_THREAD = True
    computed_in = []

    def computing(*, run, **options):
        computed_in.append(threading.current_thread().name)
        return compute.ranking_run_compute(run=run, **options)

    monkeypatch.setattr(tasks, "ranking_run_compute", computing)
    campaign, criterion = planted_campaign(strengths=STRENGTHS, n_judgements=30, seed=8)
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=20, seed=2)
    name = f"ranking.compute_run-{run.pk}"
    for thread in [t for t in threading.enumerate() if t.name == name]:
        thread.join(timeout=60)
    assert computed_in == [name]
    run.refresh_from_db()
    assert run.status == RankingRun.Status.DONE, run.error
    assert run.results.count() == len(STRENGTHS)
