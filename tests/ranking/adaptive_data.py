"""A live campaign with planted system strengths for the adaptive design tests."""

from __future__ import annotations

import numpy as np
from django.utils import timezone

from annotations.core.outputs import OutputRow
from annotations.models import (
    Campaign,
    Task,
    Worker,
)
from annotations.services.campaigns import campaign_create, campaign_launch
from annotations.services.criteria import criterion_from_preset
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build
from tests.factories import judgement_of

# Two clear tiers and a contested pair in the middle.
STRENGTHS = {"s0": 80, "s1": 78, "s2": 20, "s3": 0, "s4": -60, "s5": -62}


def adaptive_campaign(
    *, slug: str = "adapt", items: int = 30, languages: tuple[str, ...] = ("en",), batch: int = 20
) -> Campaign:
    campaign = campaign_create(
        slug=slug,
        outputs_per_task=3,
        judgements_per_task=1,
        tasks_per_worker=50,
        adaptive_design=True,
        adaptive_batch_tasks=batch,
        consent_text="You may stop at any time.",
    )
    criterion_from_preset(campaign=campaign, preset="quality")
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"{tag}-{i}",
                input=f"mr {i}",
                system=label,
                text=f"{label} says {i} in {tag}",
                language=tag,
            )
            for tag in languages
            for i in range(items)
            for label in STRENGTHS
        ],
    )
    campaign.refresh_from_db()
    from annotations.models import Output
    from annotations.services.criteria import criterion_rankme_set

    criterion_rankme_set(
        criterion=campaign.criteria.get(),
        standard_output=Output.objects.filter(item__campaign=campaign).first(),
    )
    tasks_build(campaign=campaign, seed=5, tasks_per_item=1)
    return campaign_launch(campaign=campaign)


def judge_all(campaign: Campaign, *, seed: int = 0, noise: float = 10.0) -> int:
    """Every open regular task judged once by a simulated worker (scores from STRENGTHS,
    plus normal noise of sd ``noise``). The default noise orders the tiers almost without
    fail: no lower tier ever beats a higher one, and a Bradley-Terry refit's normal
    approximation then spans every rank (the strengths' estimates run off to infinity);
    ``noise=40`` lets every tier lose now and then, as crowds do."""
    rng = np.random.default_rng(seed)
    worker, _ = Worker.objects.get_or_create(
        campaign=campaign,
        platform="link",
        external_id=f"sim{seed}",
        defaults={"consented_at": timezone.now()},
    )
    done = 0
    for task in Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR, places_held=0):
        labels = task.task_outputs.order_by("slot").values_list("output__system__label", flat=True)
        scores = [max(1.0, 100 + STRENGTHS[label] + rng.normal(0, noise)) for label in labels]
        judgement_of(task, worker, scores)
        done += 1
    return done


def _member(django_user_model, campaign, role):
    user = django_user_model.objects.create_user(f"u-{role}", password="pw-123456789")
    from annotations.models import CampaignMembership

    CampaignMembership.objects.create(campaign=campaign, user=user, role=role)
    return user
