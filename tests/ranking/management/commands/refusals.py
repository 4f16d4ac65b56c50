"""The one refusal of an unknown campaign or criterion, asked of every ranking command
that takes them (the words of ``rank``, ``correlate`` and ``export_judgements``: the
selectors' one refusal, not a wording of a command's own)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

UNKNOWN = pytest.mark.parametrize(
    "args,message",
    [
        (["nope"], "No campaign with the slug 'nope'."),
        (["nope", "--criterion", "quality"], "No campaign with the slug 'nope'."),
        (
            ["{slug}", "--criterion", "fluency"],
            "Campaign '{slug}' has no criterion 'fluency' (it has: quality).",
        ),
    ],
)


def assert_refused_in_the_selectors_words(command: str, args: list[str], message: str) -> None:
    """``command`` with ``args`` (``{slug}``: a campaign with one criterion, quality)
    fails with exactly ``message``."""
    from tests.ranking.planted import planted_campaign

    campaign, _ = planted_campaign(strengths=[10, 0], n_judgements=3, seed=2, k=2)
    with pytest.raises(CommandError) as error:
        call_command(command, *[a.format(slug=campaign.slug) for a in args], stdout=io.StringIO())
    assert str(error.value) == message.format(slug=campaign.slug)
