"""The ``rank`` command refuses impossible parameters naming the option."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ranking.models import RankingRun
from tests.ranking.planted import planted_campaign


@pytest.mark.django_db
@pytest.mark.parametrize(
    "args,option,named",
    [
        (["--seed", "-1"], "--seed", "seed"),
        (["--param", "sigma0=-1"], "--param", "sigma0"),
        (["--param", "draw_probability=1.5"], "--param", "draw_probability"),
        (["--method", "bradley_terry", "--param", "ridge=0"], "--param", "ridge"),
    ],
)
def test_the_command_refuses_naming_the_option_and_stores_nothing(args, option, named):
    campaign, _ = planted_campaign(strengths=[10, 0, -10], n_judgements=4, k=3)
    with pytest.raises(CommandError) as error:
        call_command(
            "rank",
            campaign.slug,
            "--criterion",
            "quality",
            "--runs",
            "10",
            *args,
            stdout=StringIO(),
            stderr=StringIO(),
        )
    assert str(error.value).startswith(option) and named in str(error.value)
    assert not RankingRun.objects.exists()
