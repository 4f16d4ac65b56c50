"""The power API (ranking/apis/power.py) answers both questions and says what is wrong."""

from __future__ import annotations

import json
import math

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
        # bounded like the means API's: 3,000 characters were echoed in the refusal
        ({"criterion": "c" * 3000}, "criterion"),
    ):
        response = client.get(url, bad)
        assert response.status_code == 400 and field in response.content.decode()
    nope = client.get(url, {"criterion": "nope"})
    assert nope.status_code == 400
    assert nope.json()["detail"] == f"Campaign '{campaign.slug}' has no criterion 'nope'."


def _json_text(value: object) -> str:
    """The JSON as sent: key order and number types (``194.0`` is not ``194``) count."""
    return json.dumps(value)


PLAN = {
    "kind": "plan",
    "share": 0.6,
    "draws": 0.0,
    "confidence": 0.95,
    "power": 0.8,
    "systems": 3,
    "outputs_per_task": 3,
    "judgements_per_task": 3,
    "level": False,
    "comparisons_per_pair": 194.0,
    "judgements": 194.0,
    "tasks": 65,
    "hours": 3.2333,
    "cost": 38.8,
    "seconds_per_task": 60.0,
    "pay_per_hour": 12.0,
    "simulated_ratios": [
        {"systems": 2, "low": 1.26, "high": 1.64},
        {"systems": 5, "low": 0.65, "high": 1.0},
        {"systems": 20, "low": 0.24, "high": 0.24},
    ],
}

PILOT = {
    "kind": "pilot",
    "criterion": "quality",
    "confidence": 0.95,
    "power": 0.8,
    "systems": 3,
    "outputs_per_task": 3,
    "judgements": 60,
    "seconds_per_task": 30.0,
    "pay_per_hour": 10.0,
    "pairs": [
        {
            "better": "s0",
            "worse": "s1",
            "share": 0.9,
            "draws": 0.0,
            "comparisons": 60,
            "compared": True,
            "resolved": True,
            "level": False,
            "comparisons_more": 0.0,
            "judgements_more": 0.0,
            "judgements_more_low": 0.0,
            "judgements_more_high": 0.0,
            "significant": True,
            "hours": 0.0,
            "cost": 0.0,
        },
        {
            "better": "s0",
            "worse": "s2",
            "share": 0.9167,
            "draws": 0.0,
            "comparisons": 60,
            "compared": True,
            "resolved": True,
            "level": False,
            "comparisons_more": 0.0,
            "judgements_more": 0.0,
            "judgements_more_low": 0.0,
            "judgements_more_high": 0.0,
            "significant": True,
            "hours": 0.0,
            "cost": 0.0,
        },
        {
            "better": "s1",
            "worse": "s2",
            "share": 0.525,
            "draws": 0.0167,
            "comparisons": 60,
            "compared": True,
            "resolved": False,
            "level": False,
            "comparisons_more": 3025.0,
            "judgements_more": 3025.0,
            "judgements_more_low": 24.0,
            "judgements_more_high": None,
            "significant": False,
            "hours": 25.2083,
            "cost": 252.0833,
        },
    ],
}


def test_the_api_answers_in_the_same_json_it_always_did(client, django_user_model) -> None:
    """Every key, its place and its number type, for both answers."""
    from annotations.models import CampaignMembership

    campaign, criterion = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=60, k=3)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    url = f"/api/campaigns/{campaign.slug}/power/"
    plan = client.get(url, {"share": 0.6, "pay_per_hour": 12, "seconds_per_task": 60})
    assert _json_text(plan.json()) == _json_text(PLAN)
    pilot = client.get(url, {"criterion": criterion.name, "pairs": "all", "pay_per_hour": 10})
    assert _json_text(pilot.json()) == _json_text(PILOT)


def test_infinite_numbers_are_null_and_said_level(client, django_user_model, monkeypatch) -> None:
    """Two systems level so far: no number of judgements separates them (``math.inf``),
    sent as null with ``level: true``."""
    from annotations.models import CampaignMembership
    from ranking.selectors import power as power_selectors

    campaign, criterion = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=60, k=3)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    inf = math.inf
    level_plan = power_selectors.PowerPlan(
        share=0.6, draws=0.0, confidence=0.95, power=0.8, systems=3, outputs_per_task=3,
        judgements_per_task=3, comparisons_per_pair=inf, judgements=inf, tasks=inf,
        hours=inf, cost=inf, seconds_per_task=60.0, pay_per_hour=0.0,
    )  # fmt: skip
    level_pair = power_selectors.PowerPair(
        better="s1", worse="s2", share=0.5, draws=0.1, have=40, comparisons_more=inf,
        judgements_more=inf, hours=inf, cost=inf,
    )  # fmt: skip
    report = power_selectors.PowerReport(
        criterion="quality", confidence=0.95, power=0.8, systems=3, outputs_per_task=3,
        judgements=60, seconds_per_task=30.0, pay_per_hour=0.0, pairs=[level_pair],
    )  # fmt: skip
    monkeypatch.setattr(power_selectors, "campaign_power_plan", lambda **kw: level_plan)
    monkeypatch.setattr(power_selectors, "criterion_power", lambda **kw: report)
    url = f"/api/campaigns/{campaign.slug}/power/"
    plan = client.get(url, {"share": 0.6}).json()
    assert _json_text(plan) == _json_text(
        {
            **PLAN,
            "level": True,
            "comparisons_per_pair": None,
            "judgements": None,
            "tasks": None,
            "hours": None,
            "cost": None,
            "pay_per_hour": 0.0,
        }
    )
    pilot = client.get(url, {"criterion": criterion.name}).json()
    assert pilot["pairs"] == [
        {
            "better": "s1",
            "worse": "s2",
            "share": 0.5,
            "draws": 0.1,
            "comparisons": 40,
            "compared": True,
            "resolved": False,
            "level": True,
            "comparisons_more": None,
            "judgements_more": None,
            "judgements_more_low": None,
            "judgements_more_high": None,
            "significant": False,
            "hours": None,
            "cost": None,
        }
    ]


def test_without_pay_the_api_costs_what_the_page_shows(client, django_user_model) -> None:
    """One default pay per hour (``annotations.selectors.plan.PAY_PER_HOUR_DEFAULT``): the
    API asked without ``pay_per_hour`` gives the cost the untouched power page shows (it
    gave 0 while the page said 12 an hour)."""
    from annotations.models import CampaignMembership

    campaign, criterion = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=60, k=3)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    page = client.get(f"/rankings/campaign/{campaign.slug}/power/").context
    url = f"/api/campaigns/{campaign.slug}/power/"
    plan = client.get(url, {"share": page["plan"].share}).json()
    assert plan["cost"] > 0
    assert plan["cost"] == pytest.approx(page["plan"].cost, abs=1e-4)
    assert plan["pay_per_hour"] == page["plan"].pay_per_hour
    pilot = client.get(url, {"criterion": criterion.name}).json()
    (report,) = page["reports"]
    assert pilot["pay_per_hour"] == report.pay_per_hour
    assert [p["cost"] for p in pilot["pairs"]] == pytest.approx(
        [p.cost for p in report.pairs], abs=1e-4
    )
