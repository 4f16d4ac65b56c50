"""The ``rank`` command refuses a criterion without judgements before computing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ranking.models import RankingRun

pytestmark = pytest.mark.django_db


def test_the_rank_command_refuses_it_before_computing(campaign):
    with pytest.raises(CommandError, match="'naturalness' has no judgements to rank yet"):
        call_command(
            "rank", campaign.slug, "--criterion", "naturalness", "--runs", "20",
            stdout=StringIO(), stderr=StringIO(),
        )  # fmt: skip
    assert not RankingRun.objects.exists()
