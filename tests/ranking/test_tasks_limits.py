"""The Celery settings bound a run's task."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_celery_settings_bound_a_run(settings):
    from ranking.tasks import ranking_run_compute_task

    assert ranking_run_compute_task.acks_late is True
    assert ranking_run_compute_task.reject_on_worker_lost is True
    assert ranking_run_compute_task.soft_time_limit == settings.RANKING_SOFT_TIME_LIMIT
    # Redis must not redeliver a message while its task may still legally run.
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    hard, soft = ranking_run_compute_task.time_limit, ranking_run_compute_task.soft_time_limit
    assert hard is not None and soft is not None and visibility > hard > soft
    # The sweep must not fail a run that is merely between two progress reports.
    assert settings.RANKING_STALE_AFTER >= 60
