"""The ``means`` command."""

from __future__ import annotations

import io

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from annotations.models import (
    Campaign,
    Criterion,
)
from tests.ranking.management.commands.refusals import (
    UNKNOWN,
    assert_refused_in_the_selectors_words,
)
from tests.ranking.means_data import rated_campaign

pytestmark = pytest.mark.django_db


def test_the_command():
    campaign, _, given = rated_campaign(n=6)
    out = io.StringIO()
    call_command("means", campaign.slug, stdout=out)
    text = out.getvalue()
    assert "grammar (24 ratings)" in text and f"{np.mean(given[('good', 'fr')]):.2f}" in text
    # The interval as low-high, never a symmetric "±" beside a clipped interval (a
    # reviewer's "4.67 ±0.88" was half of [3.23, 5.00], cut at the scale's top)
    assert "±" not in text and "t intervals (low-high; cut at a Likert" in text
    # as the page says: ratings of one worker or item are not independent
    assert "The intervals treat the ratings as independent" in text
    out = io.StringIO()
    call_command("means", campaign.slug, "--csv", stdout=out)
    assert out.getvalue().splitlines()[0].startswith("criterion,confidence,system,language")
    with pytest.raises(CommandError, match="no criterion"):
        call_command("means", campaign.slug, "--criterion", "nope")
    with pytest.raises(CommandError, match="No campaign with the slug"):
        call_command("means", "nope")
    assert Campaign.objects.count() == 1 and Criterion.objects.count() == 1


@UNKNOWN
def test_an_unknown_campaign_or_criterion_is_refused_in_the_other_commands_words(args, message):
    assert_refused_in_the_selectors_words("means", args, message)


def test_the_text_table_carries_the_pages_caveats():
    """A reviewer's text table printed "B 3.00 (3.00-3.00)" and "[1]" beside a run the
    minimum-data rule rejects, with none of the page's notes."""
    from io import StringIO

    from django.core.management import call_command

    from ranking.services.compute import ranking_run_compute
    from ranking.services.runs import ranking_run_create
    from tests.ranking.planted import thin_campaign_with_equal_ratings

    campaign, criterion = thin_campaign_with_equal_ratings()
    run = ranking_run_compute(
        run=ranking_run_create(campaign=campaign, criterion=criterion, runs=100, queue=False)
    )
    out = StringIO()
    call_command("means", campaign.slug, stdout=out)
    text = out.getvalue()
    assert "50.00 (all equal) n=3" in text
    assert "\u2020]" in text and "\u2020 fewer than 30 judgements or comparisons." in text
    assert f"all: run {run.pk} does not meet the minimum-data rule" in text
