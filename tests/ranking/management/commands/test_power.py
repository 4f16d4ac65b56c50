"""The ``power`` command prints both answers and refuses bad input."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.ranking.management.commands.refusals import (
    UNKNOWN,
    assert_refused_in_the_selectors_words,
)
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def test_the_command_prints_both_answers_and_refuses_bad_input() -> None:
    campaign, criterion = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=60, k=3)
    out = StringIO()
    call_command("power", campaign.slug, "--share", "0.6", stdout=out)
    assert "194 comparisons of the pair" in out.getvalue()
    out = StringIO()
    call_command("power", campaign.slug, "--criterion", criterion.name, stdout=out)
    text = out.getvalue()
    assert "s0 vs " in text and "resolved" in text
    with pytest.raises(CommandError, match="No campaign with the slug"):
        call_command("power", "nope", "--share", "0.6")
    with pytest.raises(CommandError, match="confidence"):
        call_command("power", campaign.slug, "--share", "0.6", "--confidence", "2")
    with pytest.raises(CommandError, match="--criterion"):
        call_command("power", campaign.slug)


@UNKNOWN
def test_an_unknown_campaign_or_criterion_is_refused_in_the_other_commands_words(args, message):
    assert_refused_in_the_selectors_words("power", args, message)


def test_without_pay_the_command_plans_at_the_pages_default() -> None:
    from annotations.selectors.plan import PAY_PER_HOUR_DEFAULT

    campaign, _ = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=60, k=3)
    out = StringIO()
    call_command("power", campaign.slug, "--share", "0.6", stdout=out)
    assert f"at {PAY_PER_HOUR_DEFAULT:.2f} per hour" in out.getvalue()


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--share", "0.5"),
        ("--share", "1"),
        ("--power", "0.3"),
        ("--pay-per-hour", "-5"),
        ("--seconds-per-task", "0"),
    ],
)
def test_the_command_applies_the_apis_bounds(option: str, value: str) -> None:
    """A reviewer's command printed "never (level so far) comparisons", "inf worker
    hours" and a cost of -339.50 where the API answers 400: one bound for both."""
    campaign, _ = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=6, k=3)
    args = ["power", campaign.slug, "--share", "0.6", option, value]
    with pytest.raises(CommandError, match=f"^{option}: "):
        call_command(*args, stdout=StringIO())


def test_a_confidence_of_0_999_is_not_printed_as_100_percent() -> None:
    campaign, _ = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=6, k=3)
    out = StringIO()
    call_command("power", campaign.slug, "--share", "0.6", "--confidence", "0.999", stdout=out)
    assert "99.9% confidence" in out.getvalue()


def test_the_command_says_what_its_figures_are() -> None:
    """The command printed "194 comparisons" with nothing of the simulation the page
    quotes (0.24-1.64x the figure), and "184 more" for a pair already significant, with
    nothing of the share's interval."""
    campaign, criterion = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=60, k=3)
    out = StringIO()
    call_command("power", campaign.slug, "--share", "0.6", stdout=out)
    assert "On one simulated E2E-like campaign the ranking's clusters separated" in out.getvalue()
    out = StringIO()
    call_command("power", campaign.slug, "--criterion", criterion.name, stdout=out)
    text = out.getvalue()
    assert "already significant" in text  # s0 wins 90% of 60
    assert "take the pilot's share as the truth" in text and " to unbounded)" in text
