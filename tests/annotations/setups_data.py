"""Campaigns of the study's set-ups for the page tests: every criterion on one page
(set-up 1, ``together``), one criterion per page (``separate``), PlainME (one output per
task); built and live, or still in design with its owner signed in."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client

from annotations.core.outputs import OutputRow
from annotations.models import Campaign
from annotations.services.campaigns import campaign_start
from annotations.services.criteria import criterion_from_preset
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build
from tests.factories import CampaignFactory


def built(
    *,
    setup: str = "together",
    k: int = 3,
    criteria=("quality", "naturalness"),
    items: int = 2,
    checklists: bool = False,
    **fields,
) -> Campaign:
    """A live campaign of ``setup`` with ``criteria`` (from their presets, the quality
    preset's checklist only with ``checklists``), ``items`` items of three systems each,
    tasks built with ``k`` outputs; ``fields`` go to the campaign."""
    campaign = CampaignFactory(setup=setup, outputs_per_task=k, **fields)
    for preset in criteria:
        criterion_from_preset(campaign=campaign, preset=preset)
    if not checklists:
        # The quality preset's checklist is not what most page tests are about.
        campaign.criteria.update(content_checks=[])
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"mr{i}",
                input="name[Cotto], eatType[coffee shop]",
                system=f"sys{s}",
                text=f"Cotto text {i} of system {s}.",
            )
            for i in range(items)
            for s in range(3)
        ],
    )
    tasks_build(campaign=campaign, seed=1)
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE)
    campaign.refresh_from_db()
    return campaign


def signed_in_owner(client: Client) -> tuple[Client, Campaign]:
    """A campaign in design (two criteria, four systems) and ``client`` signed in as its owner."""
    owner = get_user_model().objects.create_user("setup-owner", password="pw-1234567")
    campaign = campaign_start(user=owner, slug="setups", name="Set-ups")
    for preset in ("quality", "naturalness"):
        criterion_from_preset(campaign=campaign, preset=preset)
    campaign.criteria.update(content_checks=[])
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(item_id=f"i{i}", input="name[Aromi]", system=f"s{s}", text=f"T {i} {s}.")
            for i in range(2)
            for s in range(4)
        ],
    )
    client.force_login(owner)
    return client, campaign
