"""A campaign with planted system strengths and simulated RankME judgements."""

from __future__ import annotations

import numpy as np
from django.contrib.auth.models import User
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


def checked_campaign() -> tuple[Campaign, Criterion, User]:
    """Four systems in every judgement (20 judgements); s0 ticked "perfect" 8 times, s3
    ticked "missing" 15 times and "added" 5 times; a worker's ticks are excluded."""
    campaign, criterion = planted_campaign(strengths=[60, 20, -20, -60], n_judgements=20, k=4)
    criterion.content_checks = ["added", "missing", "perfect"]
    criterion.save(update_fields=["content_checks"])
    scores = JudgementScore.objects.filter(judgement__criterion=criterion).order_by("judgement_id")
    s0 = list(
        scores.filter(output__system__label="s0").exclude(judgement__worker__external_id="w4")
    )
    s3 = list(
        scores.filter(output__system__label="s3").exclude(judgement__worker__external_id="w4")
    )
    assert len(s0) == len(s3) == 16
    for score in s0[:8]:
        score.checks = ["perfect"]
    for i, score in enumerate(s3):
        score.checks = ["missing", "added"] if i < 5 else ["missing"] if i < 15 else []
    JudgementScore.objects.bulk_update(s0 + s3, ["checks"])
    # An excluded worker ticked everything everywhere: left out like in the ranking.
    Worker.objects.filter(campaign=campaign, external_id="w4").update(excluded=True)
    JudgementScore.objects.filter(judgement__worker__external_id="w4").update(
        checks=["added", "missing", "perfect"]
    )
    owner = User.objects.create_user("checker")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    return campaign, criterion, owner


def all_draw_campaign(n: int = 40) -> tuple[Campaign, Criterion]:
    """Three systems scored the same in each of ``n`` judgements: every comparison a draw."""
    campaign, criterion = planted_campaign(strengths=[0, 0, 0], n_judgements=0, k=3)
    for number in range(n):
        add_judgement(
            campaign=campaign,
            criterion=criterion,
            scores={"s0": 100, "s1": 100, "s2": 100},
            item_key=f"t{number}",
        )
    return campaign, criterion


def thin_campaign_with_equal_ratings() -> tuple[Campaign, Criterion]:
    """Three systems in 3 judgements (thin, under the minimum-data rule), and s3 rated
    50 in each of its 3 judgements beside s0 (ratings all equal)."""
    campaign, criterion = planted_campaign(strengths=[60, 0, -60], n_judgements=3, k=3)
    SystemFactory(campaign=campaign, label="s3")
    for number in range(3):
        add_judgement(
            campaign=campaign,
            criterion=criterion,
            scores={"s0": 100.0 + number, "s3": 50.0},
            item_key=f"eq{number}",
        )
    return campaign, criterion
