"""Power analysis reads and the ``power`` command."""

from __future__ import annotations

import math
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ranking import stats
from ranking.selectors import power
from tests.factories import CampaignFactory, SystemFactory
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def test_a_plan_before_launch_sizes_the_design_and_its_cost() -> None:
    campaign = CampaignFactory(outputs_per_task=5, judgements_per_task=3, min_seconds_per_task=0)
    for i in range(21):
        SystemFactory(campaign=campaign, label=f"s{i}")
    plan = power.campaign_power_plan(
        campaign=campaign, share=0.6, pay_per_hour=12.0, seconds_per_task=90
    )
    assert plan.comparisons_per_pair == stats.comparisons_needed(0.6) == 194
    # Tasks of 5 of 21 systems show a given pair in 1/21 of the judgements.
    assert plan.judgements == 194 * 21
    assert plan.tasks == math.ceil(194 * 21 / 3)
    assert plan.hours == pytest.approx(194 * 21 * 90 / 3600)
    assert plan.cost == pytest.approx(plan.hours * 12.0)
    with pytest.raises(ValueError, match="power"):
        power.campaign_power_plan(campaign=campaign, power=1.5)


def test_after_launch_close_neighbours_need_more_than_distant_ones() -> None:
    """Planted strengths: s0 far ahead of s1; s1 and s2 close; s2 and s3 equal."""
    _, criterion = planted_campaign(
        strengths=[60.0, 10.0, 8.0, 8.0], n_judgements=120, k=4, seed=3, noise=15.0
    )
    report = power.criterion_power(criterion=criterion, pay_per_hour=10.0, seconds_per_task=60)
    assert report is not None and report.judgements == 120 and report.systems == 4
    first, *rest = report.pairs
    assert (first.better, first.worse) == ("s0", "s1") and first.resolved
    assert first.judgements_more == 0 and first.cost == 0
    close = [p for p in rest if not p.resolved]
    assert close, "neighbours 2 points apart under noise 15 are not resolved by 120 judgements"
    for pair in close:
        assert pair.judgements_more > 0
        assert pair.hours == pytest.approx(pair.judgements_more / 60) or math.isinf(pair.hours)
    # Every pair has as many comparisons as judgements show them (tasks of all four).
    assert all(p.have == 120 for p in report.pairs)


def test_a_criterion_without_judgements_has_no_report() -> None:
    _, criterion = planted_campaign(strengths=[1.0, 0.0], n_judgements=0)
    assert power.criterion_power(criterion=criterion) is None


def test_the_command_prints_both_answers_and_refuses_bad_input() -> None:
    campaign, criterion = planted_campaign(strengths=[40.0, 0.0, 0.0], n_judgements=60, k=3)
    out = StringIO()
    call_command("power", campaign.slug, "--share", "0.6", stdout=out)
    assert "194 comparisons of the pair" in out.getvalue()
    out = StringIO()
    call_command("power", campaign.slug, "--criterion", criterion.name, stdout=out)
    text = out.getvalue()
    assert "s0 vs " in text and "resolved" in text
    with pytest.raises(CommandError, match="no campaign"):
        call_command("power", "nope", "--share", "0.6")
    with pytest.raises(CommandError, match="confidence"):
        call_command("power", campaign.slug, "--share", "0.6", "--confidence", "2")
    with pytest.raises(CommandError, match="--criterion"):
        call_command("power", campaign.slug)


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


def test_the_power_page_answers_and_the_plan_and_monitor_load_it(client, django_user_model) -> None:
    from annotations.models import CampaignMembership

    campaign, _ = planted_campaign(strengths=[40.0, 2.0, 0.0], n_judgements=60, k=3, noise=20)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    url = f"/rankings/campaign/{campaign.slug}/power/"
    page = client.get(url).content.decode()
    assert "194 comparisons" in page and "data-power-plan" in page
    assert "more to resolve" in page  # s1 vs s2 are close: judgements still needed
    bad = client.get(
        url, {"share": 0.6, "draws": 0.95, "confidence": 0.95, "power": 0.8, "pay_per_hour": 12}
    )
    assert bad.status_code == 400 and "draws" in bad.content.decode()
    for page_url in (
        f"/campaigns/{campaign.slug}/plan/",
        f"/campaigns/{campaign.slug}/monitor/",
    ):
        body = client.get(page_url).content.decode()
        assert f'hx-get="{url}"' in body and 'id="power-panel"' in body


# The page's form and the API's query are built from the selector's bounds: each value
# below, at or around a bound, gets the same answer (and message) from both. True: accepted.
POWER_INPUTS = {"share": "0.6", "draws": "0", "confidence": "0.95", "power": "0.8"}
POWER_CASES = [
    ("share", "0", False),
    ("share", "0.5", False),  # no number of judgements separates two level systems
    ("share", "0.509", False),
    ("share", "0.51", True),
    ("share", "0.99", True),
    ("share", "0.991", False),
    ("share", "1", False),
    ("share", "abc", False),
    ("share", "nan", False),
    ("draws", "-0.01", False),
    ("draws", "0", True),
    ("draws", "0.8", True),  # at 0.6 a draw counts half to each: at most 2 x 0.4
    ("draws", "0.81", False),
    ("draws", "0.95", False),
    ("draws", "1", False),
    ("draws", "1.01", False),
    ("confidence", "0.49", False),
    ("confidence", "0.5", True),
    ("confidence", "0.999", True),
    ("confidence", "0.9995", False),
    ("confidence", "1", False),
    ("power", "0.05", False),
    ("power", "0.49", False),
    ("power", "0.5", True),
    ("power", "0.99", True),
    ("power", "0.995", False),
    ("pay_per_hour", "-0.01", False),
    ("pay_per_hour", "0", True),
    ("pay_per_hour", "10000", True),
    ("pay_per_hour", "10000.5", False),
    ("seconds_per_task", "0.5", False),
    ("seconds_per_task", "1", True),
    ("seconds_per_task", "90.5", True),
    ("seconds_per_task", "86400", True),
    ("seconds_per_task", "86401", False),
    ("seconds_per_task", "inf", False),
]


@pytest.fixture
def power_urls(client, django_user_model) -> tuple[str, str]:
    from annotations.models import CampaignMembership

    campaign = CampaignFactory(outputs_per_task=3, judgements_per_task=1)
    for i in range(3):
        SystemFactory(campaign=campaign, label=f"s{i}")
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="viewer")
    client.force_login(user)
    return (
        f"/rankings/campaign/{campaign.slug}/power/",
        f"/api/campaigns/{campaign.slug}/power/",
    )


@pytest.mark.parametrize(("field", "value", "accepted"), POWER_CASES)
def test_the_page_and_the_api_accept_and_refuse_the_same_power_inputs(
    client, power_urls, field: str, value: str, accepted: bool
) -> None:
    page_url, api_url = power_urls
    query = {"pay_per_hour": "12", **POWER_INPUTS, field: value}
    page = client.get(page_url, query)
    api = client.get(api_url, query)
    assert (page.status_code, api.status_code) == ((200, 200) if accepted else (400, 400)), (
        page.status_code,
        api.content,
    )
    if not accepted:
        page_errors = page.context["form"].errors
        api_errors = api.json()["fields"]
        assert list(page_errors) == list(api_errors) == [field]
        assert page_errors[field] == api_errors[field]


def test_the_bounds_are_the_selectors() -> None:
    from ranking.forms.power import PowerForm
    from ranking.serializers.power import PowerQuery

    form, query = PowerForm(), PowerQuery()
    for name, bounds in (
        ("share", power.SHARE_RANGE),
        ("draws", power.DRAWS_RANGE),
        ("power", power.POWER_RANGE),
        ("pay_per_hour", power.PAY_PER_HOUR_RANGE),
        ("seconds_per_task", power.SECONDS_PER_TASK_RANGE),
    ):
        page_field, api_field = form.fields[name], query.fields[name]
        assert (page_field.min_value, page_field.max_value) == bounds  # type: ignore[attr-defined]
        assert (api_field.min_value, api_field.max_value) == bounds  # type: ignore[attr-defined]
    assert power.power_draws_problem(share=0.9, draws=0.2) is None
    assert power.power_draws_problem(share=0.9, draws=0.21) is not None


def test_pairs_that_look_level_on_few_comparisons_are_not_called_separated(
    client, django_user_model
) -> None:
    """The walk-through: on 16 judgements the monitor said every system was separated
    from the next, or level with it. Level pairs are said as such, with their counts."""
    from annotations.models import CampaignMembership

    campaign, _ = planted_campaign(strengths=[0.0, 0.0, 0.0], n_judgements=2, k=3, noise=0)
    user = django_user_model.objects.create_user("designer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    page = client.get(f"/rankings/campaign/{campaign.slug}/power/").content.decode()
    assert "Every system is separated" not in page
    assert "data-power-level" in page and "2 of 2 neighbours look level so far" in page
