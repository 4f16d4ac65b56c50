"""Live campaigns with built tasks, and a worker's page of them, for the hand-out tests."""

from __future__ import annotations

from annotations.models import Assignment, Campaign
from tests.factories import (
    CampaignFactory,
)


def live_campaign(**fields) -> Campaign:
    return CampaignFactory(status=Campaign.Status.LIVE, **fields)


# Set-up 1 ("together"): a group of tasks is one page --------------------------------------


def built_campaign(
    n_systems: int = 4,
    n_items: int = 3,
    *,
    k: int = 2,
    criteria: tuple[str, ...] = ("quality", "naturalness"),
    seed: int = 7,
    **fields,
) -> Campaign:
    from annotations.core.outputs import OutputRow
    from annotations.services.criteria import criterion_from_preset
    from annotations.services.outputs import outputs_store
    from annotations.services.tasks import tasks_build

    campaign = CampaignFactory(outputs_per_task=k, **fields)
    for preset in criteria:
        criterion_from_preset(campaign=campaign, preset=preset)
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"mr{i:03d}",
                input=f"name[Place {i}]",
                system=f"sys{s}",
                text=f"Place {i} by system {s}.",
            )
            for i in range(n_items)
            for s in range(n_systems)
        ],
    )
    # The quality preset's checklist is not what these hand-out tests are about.
    campaign.criteria.update(content_checks=[])
    tasks_build(campaign=campaign, seed=seed)
    campaign.status = Campaign.Status.LIVE
    campaign.save(update_fields=["status"])
    return campaign


def _page(assignment: Assignment) -> list[Assignment]:
    from annotations.selectors.judgements import page_assignments

    return page_assignments(assignment=Assignment.objects.get(pk=assignment.pk))


def _scores(page: list[Assignment]) -> dict[int, dict[int, float]]:
    return {a.criterion_id: {s: 100 + 10 * s for s in a.display_order} for a in page}
