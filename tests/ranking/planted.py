"""A campaign with planted system strengths and simulated RankME judgements."""

from __future__ import annotations

import numpy as np
from django.utils import timezone

from annotations.core.scoring import ranks_from_scores
from annotations.models import (
    Assignment,
    Campaign,
    Criterion,
    Judgement,
    JudgementScore,
    Output,
    Task,
    TaskOutput,
    Worker,
)
from tests.factories import CampaignFactory, CriterionFactory, ItemFactory, SystemFactory


def planted_campaign(
    *, strengths: list[float], n_judgements: int, seed: int = 0, k: int = 5, noise: float = 20.0
) -> tuple[Campaign, Criterion]:
    """Systems ``s0, s1, ...`` whose RankME scores are 100 + strength + noise."""
    rng = np.random.default_rng(seed)
    campaign = CampaignFactory()
    criterion = CriterionFactory(campaign=campaign, name="quality")
    systems = [SystemFactory(campaign=campaign, label=f"s{i}") for i in range(len(strengths))]
    k = min(k, len(systems))
    now = timezone.now()
    workers = [
        Worker.objects.create(campaign=campaign, platform="imported", external_id=f"w{i}")
        for i in range(5)
    ]
    for j in range(n_judgements):
        item = ItemFactory(campaign=campaign, external_id=f"item{j}")
        chosen = rng.choice(len(systems), size=k, replace=False)
        task = Task.objects.create(
            campaign=campaign, criterion=criterion, item=item, kind="imported"
        )
        outputs = [
            Output.objects.create(item=item, system=systems[s], text=f"out {s} {j}") for s in chosen
        ]
        for slot, output in enumerate(outputs):
            TaskOutput.objects.create(task=task, output=output, slot=slot)
        worker = workers[j % len(workers)]
        assignment = Assignment.objects.create(
            worker=worker,
            task=task,
            item=item,
            criterion=criterion,
            kind="imported",
            state="submitted",
            started_at=now,
            submitted_at=now,
        )
        scores = [max(1.0, round(100 + strengths[s] + rng.normal(0, noise))) for s in chosen]
        judgement = Judgement.objects.create(
            assignment=assignment,
            task=task,
            worker=worker,
            criterion=criterion,
            started_at=now,
            submitted_at=now,
            seconds_on_task=30.0,
        )
        JudgementScore.objects.bulk_create(
            JudgementScore(judgement=judgement, output=o, slot=slot, score=sc, rank=r)
            for slot, (o, sc, r) in enumerate(
                zip(outputs, scores, ranks_from_scores(scores), strict=True)
            )
        )
    return campaign, criterion


def add_judgement(
    *,
    campaign: Campaign,
    criterion: Criterion,
    scores: dict[str, float],
    item_key: str,
    worker_id: str = "w-extra",
) -> Judgement:
    """One more imported judgement: the systems named (by label) scored on a new item."""
    from annotations.models import System

    now = timezone.now()
    item = ItemFactory(campaign=campaign, external_id=item_key)
    task = Task.objects.create(campaign=campaign, criterion=criterion, item=item, kind="imported")
    worker, _ = Worker.objects.get_or_create(
        campaign=campaign, platform="imported", external_id=worker_id
    )
    outputs = [
        Output.objects.create(
            item=item, system=System.objects.get(campaign=campaign, label=label), text=label
        )
        for label in scores
    ]
    for slot, output in enumerate(outputs):
        TaskOutput.objects.create(task=task, output=output, slot=slot)
    assignment = Assignment.objects.create(
        worker=worker,
        task=task,
        item=item,
        criterion=criterion,
        kind="imported",
        state="submitted",
        started_at=now,
        submitted_at=now,
    )
    judgement = Judgement.objects.create(
        assignment=assignment,
        task=task,
        worker=worker,
        criterion=criterion,
        started_at=now,
        submitted_at=now,
        seconds_on_task=30.0,
    )
    values = list(scores.values())
    JudgementScore.objects.bulk_create(
        JudgementScore(judgement=judgement, output=o, slot=slot, score=sc, rank=r)
        for slot, (o, sc, r) in enumerate(
            zip(outputs, values, ranks_from_scores(values), strict=True)
        )
    )
    return judgement
