"""The power API (ranking/apis/power.py) answers both questions and says what is wrong."""

from __future__ import annotations

import pytest

from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def test_the_api_answers_both_questions_and_says_what_is_wrong(client, django_user_model) -> None:
    from annotations.models import CampaignMembership

    campaign, criterion = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=60, k=3)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    url = f"/api/campaigns/{campaign.slug}/power/"
    plan = client.get(url, {"share": 0.6, "pay_per_hour": 12, "seconds_per_task": 60}).json()
    assert plan["kind"] == "plan" and plan["comparisons_per_pair"] == 194
    assert plan["judgements"] == 194  # three systems, tasks of three: every judgement
    assert plan["simulated_ratios"][0] == {"systems": 2, "low": 1.26, "high": 1.64}
    pilot = client.get(url, {"criterion": criterion.name, "pairs": "all"}).json()
    assert pilot["kind"] == "pilot" and len(pilot["pairs"]) == 3
    level = [p for p in pilot["pairs"] if p["level"]]
    assert all(p["judgements_more"] is None for p in level)
    for bad, field in (
        ({}, "criterion"),
        ({"share": 0.6, "draws": 0.9}, "draws"),
        ({"share": 0.6, "power": 2}, "power"),
    ):
        response = client.get(url, bad)
        assert response.status_code == 400 and field in response.content.decode()
    assert client.get(url, {"criterion": "nope"}).status_code in (400, 404)
