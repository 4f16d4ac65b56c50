"""The settings page groups its fields and marks the fixed ones."""

from __future__ import annotations

from django.urls import reverse

from tests.annotations.designer_data import judged_campaign


def test_design_page_groups_fields_and_marks_the_fixed_ones(owner_client, people):
    campaign = judged_campaign(owner=people["owner"])
    html = owner_client.get(
        reverse("annotations:designer-settings", args=[campaign.slug])
    ).content.decode()
    for legend in ("Task design", "Quality control", "Timing", "Where workers come from"):
        assert f"<legend>{legend}</legend>" in html
    assert 'Outputs per task <span class="fixed">(fixed)</span>' in html
    assert "Amazon Mechanical Turk" in html
