"""A draft campaign with outputs of six systems, for the life-cycle tests."""

from __future__ import annotations

from annotations.core.outputs import OutputRow
from annotations.models import Campaign
from annotations.services.campaigns import campaign_create
from annotations.services.outputs import outputs_store

SIX = ("s1", "s2", "s3", "s4", "s5", "s6")


def _draft(owner, slug: str = "draft", systems: tuple[str, ...] = SIX) -> Campaign:
    campaign = campaign_create(slug=slug, name="Draft campaign", owner=owner)
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"i{i}",
                input="name[Aromi], eatType[pub]",
                system=s,
                text=f"Output of {s} for item {i}.",
            )
            for i in range(3)
            for s in systems
        ],
    )
    return campaign
