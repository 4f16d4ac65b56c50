"""The ``adaptive_step`` command and the beat task that runs it."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from ranking.models import AdaptiveBatch
from ranking.tasks import adaptive_step_task
from tests.ranking.adaptive_data import adaptive_campaign, judge_all
from tests.ranking.management.commands.refusals import (
    UNKNOWN,
    assert_refused_in_the_selectors_words,
)

pytestmark = pytest.mark.django_db


def test_the_command_and_the_beat_task():
    campaign = adaptive_campaign()
    judge_all(campaign)
    ids = adaptive_step_task()
    assert AdaptiveBatch.objects.filter(pk__in=ids).count() == 1
    out = io.StringIO()
    call_command("adaptive_step", campaign.slug, "--force", stdout=out)
    assert "batch 2, 20 tasks from 30 judgements" in out.getvalue()
    assert AdaptiveBatch.objects.get(number=2).trigger == "manual"
    out = io.StringIO()
    call_command("adaptive_step", stdout=out)
    assert "No batch needed" in out.getvalue()
    with pytest.raises(CommandError, match="no criterion"):
        call_command("adaptive_step", campaign.slug, "--criterion", "nope")
    with pytest.raises(CommandError, match="need a campaign"):
        call_command("adaptive_step", "--force")


@UNKNOWN
def test_an_unknown_campaign_or_criterion_is_refused_in_the_other_commands_words(args, message):
    assert_refused_in_the_selectors_words("adaptive_step", args, message)
