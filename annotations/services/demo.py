"""The demo campaign and the admin account that ``make run`` sets up.

``demo_campaign_seed`` makes a live E2E-style campaign from ``annotations.core.demo`` (no
data files needed): six synthetic systems on 40 restaurant MRs, both E2E criteria,
a balanced task design, and simulated finished judgements so that the organizer's
ranking and monitoring pages have something to show. ``admin_ensure`` creates the
superuser ``admin`` once and can always say its password again.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from annotations.core.demo import (
    SYSTEMS,
    DemoItem,
    demo_items,
    simulated_scores,
    simulated_workers,
)
from annotations.core.outputs import OutputRow
from annotations.models import (
    Campaign,
    CampaignMembership,
    Criterion,
    Judgement,
    Output,
    System,
    Task,
)
from annotations.services.campaigns import campaign_create, campaign_launch
from annotations.services.criteria import criterion_from_preset, criterion_rankme_set
from annotations.services.finished_judgements import (
    FinishedJudgement,
    FinishedScore,
    judgements_store_finished,
)
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build

DEMO_SLUG = "demo"
DEMO_NAME = "Demo: restaurant descriptions (E2E-style)"
DEMO_SEED = 2017
DEMO_ITEMS = 40
DEMO_WORKERS = 12
DEMO_TASKS_PER_WORKER = 8  # per criterion
DEMO_JUDGEMENTS_PER_TASK = 2  # simulated; leaves room for real visitors (3 per task)

DEMO_DESCRIPTION = (
    "A demonstration campaign with synthetic data: six made-up systems of graded "
    "quality describe 40 restaurants from structured data, as in the E2E NLG Challenge. "
    "Simulated workers have already judged part of the tasks."
)

DEMO_INSTRUCTIONS = """\
You will read short descriptions of restaurants, written by computer programs from a \
list of facts (for example: name, type of food, price range, location). Each task shows \
one list of facts and up to five descriptions of it.

Give every description a number that says how good it is, compared with a reference \
description worth 100:

- a description twice as good as the reference gets 200, one half as good gets 50;
- there is no upper limit, and any positive whole number is fine;
- descriptions you find equally good may get the same number.

Depending on the task you are asked about overall quality (is it correct, fluent, \
and does it say what the facts say, no more and no less?) or about naturalness (could \
a native speaker of English have written it?). For naturalness the facts are not shown: \
judge the language only.

Take your time: read each description fully. Some tasks check that you are reading \
carefully. There are no trick questions and no right answers that we are looking for; \
we want your own judgement.
"""

DEMO_CONSENT = """\
This study is run to compare computer programs that write text. It takes about 15 \
minutes. You will rate short restaurant descriptions; nothing in them is offensive.

What we store: your platform ID (to pay you and to avoid giving you the same task twice), \
your ratings, and how long each task took. We do not store your name, your IP address or \
your location. Your ratings may be published in anonymous form for research.

Taking part is voluntary. You may stop at any time by closing the page; work you have \
submitted until then stays stored unless you ask us to remove it, quoting your platform \
ID. If you have questions, contact the organizers through the platform's messaging.

By continuing you confirm that you are at least 18 years old, that you have read this \
information, and that you agree to take part.
"""


@dataclass(frozen=True)
class DemoSeeded:
    """What ``demo_campaign_seed`` did."""

    campaign: Campaign
    created: bool
    systems: int
    items: int
    outputs: int
    tasks: int
    judgements: int


@transaction.atomic
def demo_campaign_seed(*, seed: int = DEMO_SEED) -> DemoSeeded:
    """Create the demo campaign unless it exists; report what it holds.

    A campaign with the slug ``demo`` is left as it is, whatever it holds. Otherwise it
    is created live with ``DEMO_ITEMS`` synthetic items, the six systems' outputs, the
    E2E criteria (quality, naturalness), a task design seeded with ``seed`` and the
    simulated judgements, all in one transaction.
    """
    campaign = Campaign.objects.filter(slug=DEMO_SLUG).first()
    created = campaign is None
    if campaign is None:
        campaign = campaign_create(
            slug=DEMO_SLUG,
            name=DEMO_NAME,
            description=DEMO_DESCRIPTION,
            instructions=DEMO_INSTRUCTIONS,
            consent_text=DEMO_CONSENT,
            outputs_per_task=5,
            judgements_per_task=3,
            tasks_per_worker=10,
            min_seconds_per_task=15,
        )
        criterion_from_preset(campaign=campaign, preset="quality")
        criterion_from_preset(campaign=campaign, preset="naturalness")
        items = demo_items(rng=np.random.default_rng(seed), n_items=DEMO_ITEMS)
        outputs_store(
            campaign=campaign,
            rows=[
                OutputRow(item_id=item.external_id, input=item.input, system=label, text=out.text)
                for item in items
                for label, out in item.outputs.items()
            ],
        )
        described = {s.label: s for s in SYSTEMS}
        systems = list(campaign.systems.all())
        for system in systems:
            system.name = described[system.label].name
            system.metadata = {
                "description": described[system.label].description,
                "synthetic": True,
            }
        System.objects.bulk_update(systems, ["name", "metadata"])
        demo_standards_choose(campaign=campaign)
        tasks_build(campaign=campaign, seed=seed)  # tasks are built in a draft
        campaign = campaign_launch(campaign=campaign)
        demo_judgements_simulate(campaign=campaign, items=items, seed=seed)
    return DemoSeeded(
        campaign=campaign,
        created=created,
        systems=campaign.systems.count(),
        items=campaign.items.count(),
        outputs=Output.objects.filter(item__campaign=campaign).count(),
        tasks=campaign.tasks.filter(kind=Task.Kind.REGULAR).count(),
        judgements=Judgement.objects.filter(task__campaign=campaign).count(),
    )


# The system and item whose output is the demo's RankME standard: "terse" leaves facts
# out, so a worker can score outputs both above and below it.
DEMO_STANDARD_SYSTEM = "terse"
DEMO_STANDARD_ITEM = "demo-001"


def demo_standards_choose(*, campaign: Campaign) -> None:
    """Give every magnitude criterion of the demo its standard (an uploaded output)."""
    output = Output.objects.select_related("item").get(
        item__campaign=campaign,
        item__external_id=DEMO_STANDARD_ITEM,
        system__label=DEMO_STANDARD_SYSTEM,
    )
    for criterion in campaign.criteria.filter(scale=Criterion.Scale.MAGNITUDE):
        criterion_rankme_set(criterion=criterion, standard_output=output)


# ----------------------------------------------------------------------------------------
# Simulated finished judgements


def demo_judgements_simulate(*, campaign: Campaign, items: list[DemoItem], seed: int) -> int:
    """Store simulated judgements of the campaign's design tasks; returns how many.

    ``DEMO_WORKERS`` simulated workers (platform ``imported``, metadata
    ``{"simulated": true}``) each judge ``DEMO_TASKS_PER_WORKER`` tasks per criterion,
    never the same item twice under one criterion, at most ``DEMO_JUDGEMENTS_PER_TASK``
    per task; scores come from ``annotations.core.demo.simulated_scores`` (better outputs
    tend to score higher). Stored with ``judgements_store_finished`` as imported tasks
    mirroring the design tasks, so the regular tasks stay open for real workers.
    """
    rng = np.random.default_rng([seed, 1])
    workers = simulated_workers(rng=rng, n=DEMO_WORKERS)
    outputs = {item.external_id: item.outputs for item in items}
    now = timezone.now()
    stored = 0
    for criterion in campaign.criteria.order_by("position", "name"):
        tasks = list(
            Task.objects.filter(campaign=campaign, criterion=criterion, kind=Task.Kind.REGULAR)
            .select_related("item")
            .prefetch_related("task_outputs__output__system")
            .order_by("number")
        )
        if not tasks:
            continue
        taken = np.zeros(len(tasks), dtype=np.int64)
        judgements: list[FinishedJudgement] = []
        seen: dict[str, set[int]] = {w.external_id: set() for w in workers}
        for _ in range(DEMO_TASKS_PER_WORKER):
            for w in rng.permutation(len(workers)):
                worker = workers[int(w)]
                open_ = [
                    t
                    for t, task in enumerate(tasks)
                    if taken[t] < DEMO_JUDGEMENTS_PER_TASK
                    and task.item_id not in seen[worker.external_id]
                ]
                if not open_:
                    continue
                fewest = min(taken[t] for t in open_)
                choice = int(rng.choice([t for t in open_ if taken[t] == fewest]))
                task = tasks[choice]
                taken[choice] += 1
                seen[worker.external_id].add(task.item_id)
                labels = [to.output.system.label for to in task.task_outputs.all()]
                item_outputs = outputs[task.item.external_id]
                scores = simulated_scores(
                    [item_outputs[label] for label in labels],
                    criterion=criterion.name,
                    worker=worker,
                    rng=rng,
                )
                judgements.append(
                    simulated_judgement(
                        task=task,
                        criterion=criterion,
                        worker_id=worker.external_id,
                        labels=labels,
                        scores=scores,
                        now=now,
                        seconds=(40, 240),
                        rng=rng,
                    )
                )
        judgements.sort(key=lambda j: j.submitted_at)
        stored += judgements_store_finished(
            campaign=campaign, criterion=criterion, judgements=judgements
        )
    return stored


def simulated_judgement(
    *,
    task: Task,
    criterion: Criterion,
    worker_id: str,
    labels: list[str],
    scores: list[float],
    now: datetime,
    seconds: tuple[float, float],
    rng: np.random.Generator,
    worker_metadata: dict[str, object] | None = None,
) -> FinishedJudgement:
    """One simulated finished judgement of a design task: started 1-72 hours before
    ``now``, taking ``seconds`` (low, high) at random; marked simulated."""
    started = now - timedelta(hours=float(rng.uniform(1, 72)))
    took = float(rng.uniform(*seconds))
    return FinishedJudgement(
        item_id=task.item.external_id,
        worker_id=worker_id,
        scores=tuple(
            FinishedScore(system=label, score=float(score))
            for label, score in zip(labels, scores, strict=True)
        ),
        started_at=started,
        submitted_at=started + timedelta(seconds=took),
        task_external_id=f"sim-{criterion.name}-{task.number:04d}",
        worker_metadata=worker_metadata or {"simulated": True},
        metadata={"simulated": True},
    )


# ----------------------------------------------------------------------------------------
# The admin account


ADMIN_USERNAME = "admin"
ADMIN_PASSWORD_ENV = "HUMANEVAL_ADMIN_PASSWORD"


@dataclass(frozen=True)
class AdminAccount:
    """The admin account and, when known, its password (``None``: changed since)."""

    username: str
    password: str | None
    created: bool
    source: str  # "environment", "file" or "unknown"


@transaction.atomic
def admin_ensure(*, password_file: Path, env_password: str | None = None) -> AdminAccount:
    """The superuser ``admin``, created when missing (idempotent).

    The password is ``env_password`` (``HUMANEVAL_ADMIN_PASSWORD``) when given: it is
    set on every call, so the environment stays the truth. Otherwise a random one is
    generated at creation and written to ``password_file`` (mode 0600) so it can be
    shown again; if the password was changed since, it is not shown. The account is
    made active, staff and superuser.
    """
    User = get_user_model()
    user = User.objects.filter(username=ADMIN_USERNAME).first()
    created = user is None
    if user is None:
        password = env_password or secrets.token_urlsafe(12)
        user = User.objects.create_superuser(username=ADMIN_USERNAME, email="", password=password)
        if not env_password:
            _password_write(password_file, password)
        return AdminAccount(
            ADMIN_USERNAME, password, created, "environment" if env_password else "file"
        )
    changed = [f for f in ("is_active", "is_staff", "is_superuser") if not getattr(user, f)]
    for f in changed:
        setattr(user, f, True)
    if env_password:
        if not user.check_password(env_password):
            user.set_password(env_password)
            changed.append("password")
        if changed:
            user.save(update_fields=changed)
        return AdminAccount(ADMIN_USERNAME, env_password, created, "environment")
    if changed:
        user.save(update_fields=changed)
    stored = password_file.read_text().strip() if password_file.is_file() else ""
    if stored and user.check_password(stored):
        return AdminAccount(ADMIN_USERNAME, stored, created, "file")
    return AdminAccount(ADMIN_USERNAME, None, created, "unknown")


def _password_write(path: Path, password: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(password + "\n")


@transaction.atomic
def demo_campaign_adopt(*, user: User, slug: str = DEMO_SLUG) -> Campaign | None:
    """Make ``user`` the owner of a demo campaign (``slug``) when it has none; the
    campaign if changed."""
    campaign = Campaign.objects.select_for_update().filter(slug=slug).first()
    if campaign is None or campaign.owner_id is not None:
        return None
    campaign.owner = user
    campaign.save(update_fields=["owner", "updated_at"])
    CampaignMembership.objects.update_or_create(
        campaign=campaign, user=user, defaults={"role": CampaignMembership.Role.OWNER}
    )
    return campaign
