"""The ``rank`` command reports the statistics' refusal of the data as its error, in one
line, not as a traceback (a reviewer's all-tie file under expected wins)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ranking.models import RankingRun
from tests.ranking.planted import all_draw_campaign

pytestmark = pytest.mark.django_db


def test_an_all_draw_criterion_under_expected_wins_is_the_commands_error():
    campaign, criterion = all_draw_campaign()
    with pytest.raises(CommandError) as refused:
        call_command(
            "rank", campaign.slug, "--criterion", criterion.name, "--method", "expected_wins",
            "--runs", "100", stdout=StringIO(), stderr=StringIO(),
        )  # fmt: skip
    message = str(refused.value)
    run = RankingRun.objects.get()
    assert message == f"Ranking run {run.pk} ended failed: {run.error}"
    assert "Cannot rank 'quality': 3 of 3 systems have only draws" in message
