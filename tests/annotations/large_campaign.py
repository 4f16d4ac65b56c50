"""A campaign large enough that building its tasks runs as a background job."""

from __future__ import annotations

from django.contrib.auth.models import User

from annotations.core.outputs import OutputRow
from annotations.models import Campaign
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset, criterion_rankme_set
from annotations.services.outputs import outputs_store


def _campaign(owner: User, *, setup: str = "together") -> Campaign:
    campaign = campaign_create(slug="big", name="Big", owner=owner, outputs_per_task=3, setup=setup)
    for preset in ("quality", "naturalness", "informativeness"):
        criterion = criterion_from_preset(campaign=campaign, preset=preset)
        criterion_rankme_set(criterion=criterion, standard_input="x", standard_text="y")
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(item_id=f"{i}", input=f"name[P{i}]", system=f"s{s}", text=f"P{i} s{s}.")
            for i in range(20)
            for s in range(6)
        ],
    )
    return campaign
