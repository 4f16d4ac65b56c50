"""A small judged campaign for the designer-side tests (pages, API, exports, rankings)."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
from django.contrib.auth.models import User
from django.utils import timezone

from annotations.core.outputs import OutputRow
from annotations.core.scoring import ranks_from_scores
from annotations.models import (
    Assignment,
    Campaign,
    CampaignMembership,
    Judgement,
    JudgementScore,
    Output,
    Task,
    TaskOutput,
    Worker,
)
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset, criterion_rankme_set
from annotations.services.outputs import outputs_store
from ranking.models import RankingResult, RankingRun

SYSTEMS = ("alpha", "beta", "gamma", "delta", "epsilon")


def users() -> dict[str, User]:
    # No passwords: tests log in with force_login (password hashing is slow).
    return {
        name: User.objects.create(username=name)
        for name in ("owner", "designer", "viewer", "outsider")
    }


def judged_campaign(
    *,
    owner: User | None = None,
    slug: str = "judged",
    n_items: int = 4,
    n_workers: int = 3,
    seed: int = 7,
) -> Campaign:
    """5 systems, ``n_items`` items (item 0 has two identical outputs, merged into one
    slot), one criterion "quality" with one task of all five outputs per item, and
    ``n_workers`` workers who judged every task with magnitude-estimation scores."""
    rng = np.random.default_rng(seed)
    campaign = campaign_create(
        slug=slug,
        name="Judged campaign",
        owner=owner,
        outputs_per_task=5,
        consent_text="Your scores are stored without your name.",
    )
    rows = []
    for i in range(n_items):
        for label in SYSTEMS:
            text = f'Output of {label} for item {i}, with a comma, and a "quote".'
            if i == 0 and label in ("gamma", "delta"):
                text = "Identical output, twice."
            rows.append(
                OutputRow(
                    item_id=str(i + 1),
                    input=f"name[Item {i}], eatType[pub]",
                    system=label,
                    text=text,
                )
            )
    outputs_store(campaign=campaign, rows=rows)
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    # RankME's standard: a magnitude criterion is launched only with one.
    criterion_rankme_set(
        criterion=criterion,
        standard_input="name[Standard], eatType[pub]",
        standard_text="Standard is a pub.",
    )
    tasks = []
    for n, item in enumerate(campaign.items.order_by("position")):
        task = Task.objects.create(campaign=campaign, criterion=criterion, item=item, number=n)
        slot = 0
        seen: dict[int, int] = {}
        for output in Output.objects.filter(item=item).order_by("system__label"):
            key = output.canonical_id or output.pk
            if key not in seen:
                seen[key] = slot
                slot += 1
            TaskOutput.objects.create(task=task, output=output, slot=seen[key])
        tasks.append(task)
    start = timezone.now() - timedelta(hours=2)
    quality = {"alpha": 150.0, "beta": 100.0, "gamma": 70.0, "delta": 70.0, "epsilon": 40.0}
    for w in range(n_workers):
        worker = Worker.objects.create(
            campaign=campaign, platform=Worker.Platform.PROLIFIC, external_id=f"PID{w:04d}"
        )
        for t, task in enumerate(tasks):
            began = start + timedelta(minutes=10 * w + t, seconds=w)
            done = began + timedelta(seconds=40 + 5 * t)
            assignment = Assignment.objects.create(
                worker=worker,
                task=task,
                item=task.item,
                criterion=task.criterion,
                state=Assignment.State.SUBMITTED,
                started_at=began,
                submitted_at=done,
            )
            judgement = Judgement.objects.create(
                assignment=assignment,
                task=task,
                worker=worker,
                criterion=task.criterion,
                started_at=began,
                submitted_at=done,
                seconds_on_task=(done - began).total_seconds(),
            )
            task_outputs = list(task.task_outputs.select_related("output__system"))
            slot_score = {}
            for to in task_outputs:
                if to.slot not in slot_score:
                    noise = float(rng.integers(-30, 31))
                    slot_score[to.slot] = max(quality[to.output.system.label] + noise, 1.0)
            scores = [slot_score[to.slot] for to in task_outputs]
            ranks = ranks_from_scores(scores)
            JudgementScore.objects.bulk_create(
                JudgementScore(
                    judgement=judgement,
                    output=to.output,
                    slot=to.slot,
                    score=score,
                    rank=rank,
                    coverage="ok" if w % 2 == 0 else "missing",
                )
                for to, score, rank in zip(task_outputs, scores, ranks, strict=True)
            )
    return campaign


def add_member(campaign: Campaign, user: User, role: str) -> None:
    CampaignMembership.objects.update_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )


def judged_world() -> tuple[dict[str, User], Campaign, RankingRun]:
    """Owner, designer, viewer and outsider; a judged campaign with the first three as
    members; and a finished ranking run of its criterion (one system per cluster)."""
    people = users()
    campaign = judged_campaign(owner=people["owner"])
    add_member(campaign, people["designer"], CampaignMembership.Role.DESIGNER)
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    run = RankingRun.objects.create(
        campaign=campaign, criterion=campaign.criteria.get(), status="done", progress=1.0
    )
    for i, system in enumerate(campaign.systems.order_by("label")):
        RankingResult.objects.create(
            run=run, system=system, value=1.0 - i, rank_lo=i + 1, rank_hi=i + 1, cluster=i + 1
        )
    return people, campaign, run
