"""The overview and the monitor count the same totals."""

from __future__ import annotations

import re

from django.urls import reverse

from annotations.models import CampaignMembership
from annotations.services.demo import demo_campaign_seed
from tests.annotations.designer_data import add_member


def test_overview_and_monitor_show_the_same_totals_on_the_demo(client, people):
    campaign = demo_campaign_seed().campaign
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    client.force_login(people["viewer"])
    overview = client.get(reverse("annotations:designer-campaign", args=[campaign.slug]))
    monitor = client.get(reverse("annotations:designer-monitor", args=[campaign.slug]))
    a, b = overview.context["totals"], monitor.context["totals"]
    # 158 regular tasks x 3 judgements to collect (the standard's item has one task per
    # criterion: its standard is not rated), plus 192 simulated (imported) ones.
    assert (a.planned, a.done, a.imported) == (b.planned, b.done, b.imported) == (666, 192, 192)

    def shown(html: str) -> str:
        match = re.search(r'id="judgement-totals">(.*?)</', html, re.S)
        assert match
        return re.sub(r"<[^>]+>|\s+", " ", match.group(1)).strip()

    assert "192 of 666" in shown(overview.content.decode())
    assert "192 of 666" in shown(monitor.content.decode())
