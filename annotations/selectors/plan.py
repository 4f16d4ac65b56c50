"""The plan: what a campaign will take (tasks, judgements, workers, time and money),
from its built tasks or estimated before building. The plan page and the campaign's
overview read it."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
from django.db.models import Count

from annotations.core.design import item_task_counts
from annotations.models import Campaign, Judgement, Output, Task, TaskOutput
from annotations.selectors.criteria import standard_outputs_left_out, standard_outputs_named
from annotations.selectors.judgements import regular_q
from annotations.selectors.sessions import tasks_per_regular_page

#: What a crowd worker is paid an hour when no one says (in settings.PAYMENT_CURRENCY):
#: the one default of the plan page, the power page and API, and their selectors.
PAY_PER_HOUR_DEFAULT = 12.0


@dataclass(frozen=True)
class SystemPlan:
    label: str
    #: summed over the campaign's criteria
    comparisons: int
    #: what one criterion's ranking gets (the mean over criteria)
    per_criterion: int = 0


@dataclass(frozen=True)
class Plan:
    """What a campaign will take: tasks, judgements, workers, time and money."""

    built: bool
    criteria: int
    items: int
    systems: int
    tasks: int
    judgements: int
    #: tasks a worker judges: every judgement, plus one task per attention-check or
    #: repeat page (a check page holds one task in either set-up)
    worker_tasks: int
    workers: int
    hours: float
    cost: float
    pay_per_hour: float
    seconds_per_task: float
    per_system: list[SystemPlan] = field(default_factory=list)
    # Tasks and judgements imported from a finished evaluation (``import_e2e`` and the
    # like): they are not planned, only shown.
    imported_tasks: int = 0
    imported_judgements: int = 0
    #: What ``tasks_per_worker`` counts and the monitor shows per worker (glossary: page):
    #: one task in set-up 2, one item's group of ``criteria`` tasks in set-up 1.
    pages: int = 0
    #: pages of regular tasks (judgements that count) and of checks (attention, repeat)
    regular_pages: int = 0
    tasks_per_page: int = 1
    #: outputs no task rates (a standard, and any output with its text), "system for item"
    standards_left_out: list[str] = field(default_factory=list)

    @property
    def tasks_per_item(self) -> float:
        """Tasks per item and criterion, on average (an item's outputs over its tasks)."""
        return self.tasks / (self.criteria * self.items) if self.criteria and self.items else 0.0

    @property
    def imported_only(self) -> bool:
        """An imported campaign with nothing to collect: its plan is not an estimate."""
        return bool(self.imported_tasks) and not self.built


def campaign_plan(
    *,
    campaign: Campaign,
    pay_per_hour: float = PAY_PER_HOUR_DEFAULT,
    seconds_per_task: float | None = None,
) -> Plan:
    """The campaign's plan: from the built tasks when there are any, else estimated.

    Before tasks exist, the number of tasks is what ``tasks_build`` will make: per item
    and criterion, ``annotations.core.design.item_task_counts`` over the systems that have an
    output for that item (items without enough outputs get none). Attention checks and
    repeats add worker time but no judgements that count. Comparisons are the pairwise
    comparisons a system takes part in, summed over criteria; before building they are
    the expected share of each item's task slots (the design spreads them evenly).
    """
    if seconds_per_task is None:
        seconds_per_task = float(max(campaign.min_seconds_per_task, 60))
    k = campaign.outputs_per_task
    criteria = list(campaign.criteria.all())
    n_criteria = len(criteria)
    n_items = campaign.items.count()
    systems = list(campaign.systems.order_by("label").values_list("id", "label"))
    jpt = campaign.judgements_per_task
    regular = Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR)
    n_tasks = regular.count()
    built = n_tasks > 0
    comparisons: dict[int, int] = defaultdict(int)
    if built:
        slots = dict(
            regular.annotate(n=Count("task_outputs__slot", distinct=True)).values_list("id", "n")
        )
        for task_id, system_id in TaskOutput.objects.filter(
            regular_q(), task__in=regular
        ).values_list("task_id", "output__system_id"):
            comparisons[system_id] += (slots[task_id] - 1) * jpt
    else:
        n_tasks = 0
        index = {sid: s for s, (sid, _) in enumerate(systems)}
        item_rows: dict[int, list[int]] = defaultdict(list)
        # as the build does: the outputs chosen as standards are never rated
        for item_id, system_id in (
            Output.objects.filter(item__campaign=campaign)
            .exclude(standard_outputs_left_out(criteria=criteria))
            .values_list("item_id", "system_id")
        ):
            item_rows[item_id].append(index[system_id])
        if item_rows and systems:
            available = np.zeros((len(item_rows), len(systems)), dtype=bool)
            for row, members in enumerate(item_rows.values()):
                available[row, members] = True
            per_item = item_task_counts(available, k=k)
            n_tasks = int(per_item.sum()) * n_criteria
            n_i = available.sum(axis=1)
            k_i = np.minimum(k, n_i)
            # Each system of an item fills T_i * k_i / n_i of its slots on average; every
            # slot is compared with the task's k_i - 1 others in each judgement.
            share = np.where(per_item > 0, per_item * k_i * (k_i - 1) / np.maximum(n_i, 1), 0)
            expected = (available * share[:, None]).sum(axis=0) * n_criteria * jpt
            for s, (system_id, _) in enumerate(systems):
                comparisons[system_id] = round(float(expected[s]))
    judgements = n_tasks * jpt
    real_share = max(1.0 - campaign.attention_check_rate - campaign.repeat_rate, 1e-9)
    # Workers are counted in pages, the unit of ``tasks_per_worker`` and of the monitor's
    # worker table: in set-up 1 a regular page holds one task per criterion, while an
    # attention check or a repeat is a page of one task (``selectors.sessions.page_key``).
    per_page = tasks_per_regular_page(campaign=campaign, criteria=n_criteria)
    regular_pages = math.ceil(judgements / per_page) if judgements else 0
    pages = math.ceil(regular_pages / real_share) if regular_pages else 0
    worker_tasks = judgements + (pages - regular_pages)
    hours = worker_tasks * seconds_per_task / 3600.0
    return Plan(
        standards_left_out=standard_outputs_named(campaign=campaign, criteria=criteria),
        built=built,
        criteria=n_criteria,
        items=n_items,
        systems=len(systems),
        tasks=n_tasks,
        judgements=judgements,
        worker_tasks=worker_tasks,
        workers=math.ceil(pages / campaign.tasks_per_worker) if pages else 0,
        hours=hours,
        cost=round(hours * pay_per_hour, 2),
        pay_per_hour=pay_per_hour,
        seconds_per_task=seconds_per_task,
        per_system=[
            SystemPlan(label, comparisons[sid], round(comparisons[sid] / max(n_criteria, 1)))
            for sid, label in systems
        ],
        imported_tasks=Task.objects.filter(campaign=campaign, kind=Task.Kind.IMPORTED).count(),
        imported_judgements=Judgement.objects.filter(
            criterion__campaign=campaign, task__kind=Task.Kind.IMPORTED
        ).count(),
        pages=pages,
        regular_pages=regular_pages,
        tasks_per_page=per_page,
    )
