"""The ``sweep_ranking_runs`` command and its beat schedule."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from ranking.models import RankingRun
from tests.ranking.planted import planted_campaign
from tests.ranking.running_runs import _running

pytestmark = pytest.mark.django_db


STRENGTHS = [60.0, 20.0, -20.0, -60.0]


@pytest.fixture
def planted():
    return planted_campaign(strengths=STRENGTHS, n_judgements=40, seed=11, k=4)


def test_sweep_command_and_beat_schedule(planted, settings):
    campaign, criterion = planted
    lost = _running(campaign, criterion, heartbeat_ago=120)
    out = StringIO()
    call_command("sweep_ranking_runs", "--stale-after", "60", stdout=out)
    assert f"Failed 1 lost run(s): {lost.pk}." in out.getvalue()
    assert RankingRun.objects.get(pk=lost.pk).status == "failed"
    out = StringIO()
    call_command("sweep_ranking_runs", stdout=out)
    assert "No lost runs." in out.getvalue()
    from humaneval.celery import app

    schedule = app.conf.beat_schedule
    assert any(entry["task"] == "ranking.sweep_runs" for entry in schedule.values())
    import ranking.tasks  # noqa: F401 - registers the tasks

    assert "ranking.sweep_runs" in app.tasks
