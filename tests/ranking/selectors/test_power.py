"""Power analysis reads (ranking/selectors/power.py) and their bounds, alike on the page and
in the API."""

from __future__ import annotations

import math

import pytest

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


@pytest.mark.django_db
def test_pairs_never_compared_are_no_estimate_and_the_pilots_design_is_used(client) -> None:
    """A reviewer's pilot: 3-way tasks of two groups never shown together. "A vs D 50.0%
    have 0 ... never (level so far)" and `"level": true`; and the campaign's default of 5
    outputs a task understated the judgements 3-way tasks need by 3.3x."""
    from io import StringIO

    from django.core.management import call_command
    from rest_framework.test import APIClient

    from tests.ranking.planted import add_judgement

    campaign, criterion = planted_campaign(strengths=[0] * 6, n_judgements=0, k=3)
    for n in range(12):
        add_judgement(
            campaign=campaign,
            criterion=criterion,
            scores={"s0": 100 + n, "s1": 90, "s2": 80},
            item_key=f"a{n}",
        )
        add_judgement(
            campaign=campaign,
            criterion=criterion,
            scores={"s3": 100, "s4": 90 + n, "s5": 80},
            item_key=f"b{n}",
        )
    assert campaign.outputs_per_task == 5
    report = power.criterion_power(criterion=criterion, pairs="all")
    assert report is not None and report.outputs_per_task == 3
    apart = report.never_compared
    assert len(apart) == 9 and all(not p.level and math.isnan(p.share) for p in apart)
    assert all(p.compared for p in report.unresolved)

    out = StringIO()
    call_command("power", campaign.slug, "--criterion", "quality", "--all-pairs", stdout=out)
    assert "no estimate: never compared" in out.getvalue() and "level so far" not in out.getvalue()

    from django.contrib.auth.models import User

    campaign.owner = User.objects.create_user("owner-power")
    campaign.save(update_fields=["owner"])
    api = APIClient()
    api.force_authenticate(campaign.owner)
    answer = api.get(f"/api/campaigns/{campaign.slug}/power/?criterion=quality&pairs=all")
    body = answer.json()
    assert answer.status_code == 200, body
    never = [p for p in body["pairs"] if not p["compared"]]
    assert len(never) == 9 and all(p["share"] is None and not p["level"] for p in never)
