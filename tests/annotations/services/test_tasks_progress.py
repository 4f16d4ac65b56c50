"""Building tasks reports its progress, two steps a criterion."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from annotations.models import Task
from annotations.services.tasks import campaign_tasks_build
from tests.annotations.large_campaign import _campaign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_process(settings):
    settings.JOBS_IN_THREAD = False


def test_build_reports_progress_two_steps_a_criterion():
    campaign = _campaign(User.objects.create(username="o"), setup="separate")
    steps: list[tuple[int, int]] = []
    report = campaign_tasks_build(
        campaign=campaign, seed=1, progress=lambda d, t: steps.append((d, t))
    )
    assert steps == [(n, 6) for n in range(7)]
    assert sum(c.tasks for c in report.criteria) == Task.objects.count() == 3 * 20 * 2
