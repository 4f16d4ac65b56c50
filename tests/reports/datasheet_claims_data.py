"""Campaigns of every kind of judgement, and a structure check of LaTeX, for the datasheet's claims."""

from __future__ import annotations

from annotations.models import Campaign
from tests.factories import (
    CampaignFactory,
    CriterionFactory,
    WorkerFactory,
    judgement_of,
    task_with_outputs,
)


def _campaign(*, kind: str, setup: str = Campaign.Setup.SEPARATE, **criterion_fields) -> Campaign:
    """Two items of three outputs; the first item judged twice on "quality", the second
    not at all. ``kind``: regular (collected here) or imported (a finished evaluation)."""
    campaign = CampaignFactory(
        setup=setup, attention_check_rate=0.1, min_seconds_per_task=20, quality_threshold=0.5
    )
    criterion = CriterionFactory(campaign=campaign, name="quality", **criterion_fields)
    task = task_with_outputs(campaign=campaign, criterion=criterion, kind=kind)
    task_with_outputs(campaign=campaign, criterion=criterion, kind=kind, number=1)
    for scores in ([100.0, 50.0, 10.0], [90.0, 60.0, 20.0]):
        judgement_of(task, WorkerFactory(campaign=campaign), scores)
    return campaign


# Imported campaigns: the platform's defaults are not facts about them -----------------------

PLATFORM_DEFAULTS = (
    "Attention checks: 10% of tasks",
    "lowest pass rate 50%",
    "Minimum time per task: 20 s",
    "Bonuses:",
    "approved",
)
