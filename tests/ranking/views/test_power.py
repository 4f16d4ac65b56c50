"""The power page (ranking/views/power.py) answers; the plan and monitor pages load it."""

from __future__ import annotations

import pytest

from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def test_the_power_page_answers_and_the_plan_and_monitor_load_it(client, django_user_model) -> None:
    from annotations.models import CampaignMembership

    campaign, _ = planted_campaign(strengths=[40.0, 2.0, 0.0], n_judgements=60, k=3, noise=20)
    user = django_user_model.objects.create_user("viewer", password="pw-123456789")
    CampaignMembership.objects.create(campaign=campaign, user=user, role="designer")
    client.force_login(user)
    url = f"/rankings/campaign/{campaign.slug}/power/"
    page = client.get(url).content.decode()
    assert "194 comparisons" in page and "data-power-plan" in page
    assert "more for 80% power on" in page  # s1 vs s2 are close: judgements still needed
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
