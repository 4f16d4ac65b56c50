"""Fixtures shared by the tests of this folder."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from annotations.models import (
    CampaignMembership,
    Criterion,
    ImportJob,
    Worker,
    WorkerCheck,
)
from ranking.models import RankingRun
from tests.annotations.designer_data import add_member, users
from tests.factories import (
    CampaignFactory,
    CriterionFactory,
    WorkerFactory,
    task_with_outputs,
)
from tests.ranking.planted import planted_campaign
from tests.reports.datasheet_data import _judge


@pytest.fixture
def campaign():
    owner = User.objects.create_user("owner", password="pw")
    c = CampaignFactory(
        owner=owner,
        name="Demo",
        instructions="Read every output carefully please.",
        attention_check_rate=0.1,
        repeat_rate=0.05,
        min_seconds_per_task=20,
        assignment_timeout_minutes=25,
        tasks_per_worker=7,
        task_seed=42,
    )
    q = CriterionFactory(campaign=c, name="quality", question="How good is it?", show_input=True)
    CriterionFactory(
        campaign=c,
        name="fluency",
        question="How fluent?",
        show_input=False,
        scale=Criterion.Scale.LIKERT,
        content_checks=["added", "missing"],
        scale_settings={
            "levels": [
                {"value": 1, "label": "bad", "descriptor": "unreadable"},
                {"value": 2, "label": "good", "descriptor": "fine"},
            ]
        },
    )
    task = task_with_outputs(campaign=c, criterion=q)
    c.items.update(attributes={"language": "en"})
    w1 = WorkerFactory(campaign=c, bonus=Decimal("1.50"), review="approved")
    w2 = WorkerFactory(campaign=c, platform=Worker.Platform.MTURK, expert=True)
    WorkerFactory(campaign=c, excluded=True)
    a1 = _judge(task, w1, [100, 50, 10])
    _judge(task, w2, [90, 60, 20], too_fast=True)
    WorkerCheck.objects.create(worker=w1, assignment=a1, kind="attention", passed=True)
    ImportJob.objects.create(campaign=c, kind="outputs", filename="outs.tsv", status="done")
    RankingRun.objects.create(
        campaign=c,
        criterion=q,
        method="bootstrap",
        runs=300,
        confidence=0.9,
        seed=7,
        status="done",
        n_judgements=2,
        n_comparisons=6,
        finished_at=timezone.now(),
    )
    return c


@pytest.fixture
def world():
    people = users()
    campaign, _criterion = planted_campaign(
        strengths=[60, 20, -20, -60], n_judgements=12, seed=3, k=4
    )
    campaign.owner = people["owner"]
    campaign.save(update_fields=["owner"])
    add_member(campaign, people["viewer"], CampaignMembership.Role.VIEWER)
    return people, campaign
