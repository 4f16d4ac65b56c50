"""The ``rank`` command ranks a slice, a language and every value side by side."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ranking.models import RankingRun
from tests.ranking.sliced_campaign import _sliced

pytestmark = pytest.mark.django_db


def test_the_command_ranks_a_slice_a_language_and_every_value_side_by_side() -> None:
    campaign, criterion = _sliced()
    out = StringIO()
    call_command(
        "rank",
        campaign.slug,
        "--criterion",
        criterion.name,
        "--where",
        "challenge_set=b",
        "--runs",
        "20",
        stdout=out,
    )
    assert "slice challenge_set=b" in out.getvalue()
    out = StringIO()
    call_command(
        "rank",
        campaign.slug,
        "--criterion",
        criterion.name,
        "--by",
        "challenge_set",
        "--runs",
        "20",
        stdout=out,
    )
    text = out.getvalue()
    assert "Side by side" in text
    side = text.split("Side by side")[1]
    assert "all items" in side and "challenge_set=a" in side and "challenge_set=b" in side
    assert {tuple(sorted(r.where.items())) for r in RankingRun.objects.all()} >= {
        (),
        (("challenge_set", "a"),),
        (("challenge_set", "b"),),
    }
    out = StringIO()
    call_command(
        "rank",
        campaign.slug,
        "--criterion",
        criterion.name,
        "--language",
        "de",
        "--runs",
        "20",
        stdout=out,
    )
    assert "slice language=de" in out.getvalue()
    before = RankingRun.objects.count()
    for args, message in (
        (["--by", "colour"], "no item"),
        (["--where", "challenge_set"], "attribute=value"),
        (["--where", "challenge_set=zzz"], "no judgements"),
        (["--by", "challenge_set", "--where", "challenge_set=a"], "two different"),
    ):
        with pytest.raises(CommandError, match=f"(?i){message}"):
            call_command("rank", campaign.slug, "--criterion", criterion.name, *args)
    assert RankingRun.objects.count() == before
    with pytest.raises(CommandError) as refused:
        call_command("rank", campaign.slug, "--criterion", criterion.name, "--by", "colour")
    assert str(refused.value) == (
        f"No item of '{campaign.slug}' has the attribute 'colour' (its attributes: "
        "challenge_set, language)."
    )
