"""The payments API (annotations/apis/payments.py) reads as the page shows."""

from __future__ import annotations

import pytest

from annotations.models import CampaignMembership
from tests.annotations.designer_data import add_member, judged_campaign

pytestmark = pytest.mark.django_db


def test_payments_are_read_as_the_page_shows_them(people, api_as):
    campaign = judged_campaign(owner=people["owner"], n_items=2, n_workers=2)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    rows = api_as(people["viewer"]).get(f"/api/campaigns/{campaign.slug}/payments/").json()
    assert len(rows) == 2
    # Workers without quality checks get no suggestion (the organizer decides).
    assert {r["suggestion"] for r in rows} <= {"approved", "rejected", "review", ""}
    assert all(r["decision"] == "" and r["pages"] == 2 for r in rows)
