"""Completion codes go into the link back to Prolific: letters, digits, '-' and '_'."""

from __future__ import annotations

import pytest

from annotations.services.campaigns import campaign_settings_problems
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("code", "ok"),
    [
        ("C1A2B3", True),
        ("done_2026-11", True),
        ('"><script>alert(11)</script>', False),
        ("with space", False),
        ("", False),
        ("x" * 65, False),
    ],
)
def test_a_completion_code_is_letters_digits_dash_or_underscore(code: str, ok: bool) -> None:
    campaign = CampaignFactory.build()
    for field in ("completion_code", "failed_check_code", "screened_out_code"):
        campaign = CampaignFactory.build(**{field: code})
        problems = campaign_settings_problems(campaign=campaign)
        assert (field not in problems) is ok, (field, problems)
