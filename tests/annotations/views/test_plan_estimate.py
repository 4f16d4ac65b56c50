"""The plan page's estimate is what the build makes."""

from __future__ import annotations

from django.urls import reverse

from annotations.core.outputs import OutputRow
from annotations.models import Task
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset, criterion_rankme_set
from annotations.services.outputs import outputs_store

SIX = ("s1", "s2", "s3", "s4", "s5", "s6")


# The plan and the totals ------------------------------------------------------------------------


def test_plan_page_estimate_equals_what_the_build_makes(owner_client, people):
    campaign = campaign_create(slug="ragged", owner=people["owner"], outputs_per_task=3)
    rows = [
        OutputRow(item_id=f"i{i}", input="x", system=s, text=f"{s}{i}")
        for i in range(8)
        for s in (SIX if i < 2 else SIX[:3])
    ]
    outputs_store(campaign=campaign, rows=rows)
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    criterion_rankme_set(criterion=criterion, standard_input="x", standard_text="standard")
    url = reverse("annotations:designer-plan", args=[campaign.slug])
    estimate = owner_client.get(url).context["plan"]
    # 2 items of 6 systems: 2 tasks of 3; 6 items of 3 systems: 1 task each.
    assert (estimate.built, estimate.tasks) == (False, 10)
    owner_client.post(reverse("annotations:designer-build", args=[campaign.slug]))
    assert Task.objects.filter(campaign=campaign, kind="regular").count() == 10
    built = owner_client.get(url).context["plan"]
    assert (built.built, built.tasks, built.judgements) == (True, 10, estimate.judgements)
