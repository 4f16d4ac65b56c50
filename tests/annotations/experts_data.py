"""A campaign judged by two experts and three crowd workers (careful, careless, and one
who judged nothing the experts judged), built through the import writer."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from annotations.models import Campaign, Criterion
from annotations.services.finished_judgements import (
    FinishedJudgement,
    FinishedScore,
    judgements_store_finished,
)
from tests.factories import (
    CampaignFactory,
    CriterionFactory,
    ItemFactory,
    OutputFactory,
    SystemFactory,
)

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
QUALITY = np.array([10.0, 30.0, 50.0, 70.0, 90.0])  # system s0 worst ... s4 best


def experts_campaign(*, slug: str = "experts", n_items: int = 16) -> tuple[Campaign, Criterion]:
    rng = np.random.default_rng(11)
    campaign = CampaignFactory(slug=slug)
    criterion = CriterionFactory(
        campaign=campaign, name="quality", scale=Criterion.Scale.SLIDER, scale_settings={}
    )
    systems = [SystemFactory(campaign=campaign, label=f"s{i}") for i in range(5)]
    for n in range(n_items + 4):
        item = ItemFactory(campaign=campaign, external_id=f"i{n}", position=n)
        for system in systems:
            OutputFactory(item=item, system=system)

    def judged(worker: str, items: range, noise: float) -> list[FinishedJudgement]:
        out = []
        for n in items:
            scores = np.clip(QUALITY + rng.normal(size=5) * noise, 0, 100).round()
            out.append(
                FinishedJudgement(
                    item_id=f"i{n}",
                    worker_id=worker,
                    scores=tuple(FinishedScore(f"s{i}", float(v)) for i, v in enumerate(scores)),
                    started_at=T0,
                    submitted_at=T0 + timedelta(seconds=60),
                )
            )
        return out

    everyone = range(n_items)
    experts = judged("expertA", everyone, 4.0) + judged("expertB", everyone, 4.0)
    crowd = (
        judged("careful", everyone, 6.0)
        + judged("careless", everyone, 60.0)
        + judged("elsewhere", range(n_items, n_items + 4), 6.0)
    )
    judgements_store_finished(
        campaign=campaign, criterion=criterion, judgements=experts, experts=True
    )
    judgements_store_finished(campaign=campaign, criterion=criterion, judgements=crowd)
    return campaign, criterion
