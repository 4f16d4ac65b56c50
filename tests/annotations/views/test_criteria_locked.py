"""Criteria with tasks offer no edit or remove."""

from __future__ import annotations

from django.urls import reverse

from tests.annotations.designer_data import judged_campaign


def test_criteria_with_tasks_offer_no_edit_or_remove(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    html = owner_client.get(
        reverse("annotations:designer-criteria", args=[campaign.slug])
    ).content.decode()
    criterion = campaign.criteria.get()
    assert "fixed: has tasks" in html
    assert reverse("annotations:designer-criterion", args=[campaign.slug, criterion.pk]) not in html
    # Still a draft: new criteria may be added next to the fixed one.
    assert "Add a criterion" in html
