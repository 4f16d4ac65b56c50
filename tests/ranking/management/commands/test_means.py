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
