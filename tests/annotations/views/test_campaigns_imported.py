"""An imported campaign's overview and plan say it was imported."""

from __future__ import annotations

from django.urls import reverse

from annotations.models import Campaign, Task
from annotations.selectors import plan as plan_selectors
from tests.annotations.designer_data import judged_campaign


def test_imported_campaign_overview_and_plan_say_imported(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    campaign.tasks.update(kind=Task.Kind.IMPORTED)
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.CLOSED)
    plan = plan_selectors.campaign_plan(campaign=campaign)
    assert plan.imported_only and (plan.imported_tasks, plan.imported_judgements) == (4, 12)
    html = owner_client.get(
        reverse("annotations:designer-campaign", args=[campaign.slug])
    ).content.decode()
    assert "4 imported" in html and "12 imported" in html and "not built" not in html
    assert "show workers that the study is closed" in html
    plan_html = owner_client.get(
        reverse("annotations:designer-plan", args=[campaign.slug])
    ).content.decode()
    assert "imported from a finished evaluation" in plan_html
