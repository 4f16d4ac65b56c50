"""The plan and the monitor count one unit, the page (docs/glossary.md): in set-up 1 a
page is one item with every criterion, and ``tasks_per_worker`` counts pages."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from django.utils import timezone

from annotations.core.outputs import OutputRow
from annotations.models import Campaign
from annotations.selectors.judgements import page_assignments
from annotations.selectors.monitor import worker_table
from annotations.selectors.payments import payment_rows
from annotations.selectors.plan import campaign_plan
from annotations.selectors.sessions import pages_done
from annotations.services.assignment import page_next_for
from annotations.services.criteria import criterion_from_preset
from annotations.services.judgements import judgement_submit, judgements_submit_page
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build
from tests.factories import CampaignFactory, WorkerFactory

pytestmark = pytest.mark.django_db

CRITERIA = ("informativeness", "naturalness", "quality")


def _campaign(*, setup: str, n_items: int = 30, **fields) -> Campaign:
    values = {
        "outputs_per_task": 3,
        "judgements_per_task": 3,
        "tasks_per_worker": 10,
        "attention_check_rate": 0.1,
        "repeat_rate": 0.1,
        "min_seconds_per_task": 0,
    }
    campaign = CampaignFactory(setup=setup, **(values | fields))
    for preset in CRITERIA:
        criterion_from_preset(campaign=campaign, preset=preset)
    campaign.criteria.update(content_checks=[])  # page counts, not the checklist
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"mr{i}",
                input=f"name[Place {i}]",
                system=f"sys{s}",
                text=f"Place {i}, as system {s} writes it.",
            )
            for i in range(n_items)
            for s in range(3)
        ],
    )
    return campaign


@pytest.mark.parametrize("built", [False, True])
def test_setup1_plan_counts_workers_in_pages_of_every_criterion(built):
    together = _campaign(setup=Campaign.Setup.TOGETHER)
    separate = _campaign(setup=Campaign.Setup.SEPARATE)
    if built:
        tasks_build(campaign=together, seed=1)
        tasks_build(campaign=separate, seed=1)
    one, two = campaign_plan(campaign=together), campaign_plan(campaign=separate)
    # 30 items x 3 criteria, one task each, 3 judgements a task.
    assert one.tasks == two.tasks == 90 and one.judgements == two.judgements == 270
    # Set-up 1: 270 judgements are 90 pages of three criteria; 80% of a worker's pages
    # are real (10% checks, 10% repeats): 113 pages, 12 workers of 10 pages. The old
    # plan divided tasks by tasks_per_worker: 338 "worker tasks", 34 workers.
    assert (one.tasks_per_page, one.regular_pages) == (3, 90)
    assert one.pages == math.ceil(90 / 0.8) == 113
    assert one.workers == 12
    # Set-up 2: one task a page, three times the pages and the workers.
    assert (two.tasks_per_page, two.regular_pages, two.pages) == (1, 270, 338)
    assert two.workers == 34
    # Work: every judgement plus the check pages (one task each), in both set-ups.
    assert one.worker_tasks == 270 + (113 - 90)


def _walk(campaign: Campaign, worker, *, start):
    """A worker does a whole session through the services, one page at a time."""
    now = start
    while True:
        found = page_next_for(worker=worker, campaign=campaign, now=now)
        if found.assignment is None:
            return
        page = page_assignments(assignment=found.assignment)
        now += timedelta(minutes=2)
        if len(page) > 1:
            judgements_submit_page(
                assignments=page,
                scores={
                    a.criterion_id: {slot: 50.0 + slot for slot in a.display_order} for a in page
                },
                now=now,
            )
        else:
            a = page[0]
            judgement_submit(
                assignment=a, scores={slot: 50.0 + slot for slot in a.display_order}, now=now
            )


def test_monitor_and_payments_count_a_setup1_session_in_pages_with_checks_labelled():
    campaign = _campaign(setup=Campaign.Setup.TOGETHER, n_items=12, attention_check_rate=0.2)
    tasks_build(campaign=campaign, seed=3)
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE)
    campaign.refresh_from_db()
    start = timezone.now() - timedelta(hours=2)
    worker = WorkerFactory(campaign=campaign, consented_at=start)
    _walk(campaign, worker, start=start)
    assert pages_done(worker=worker, campaign=campaign) == campaign.tasks_per_worker
    (row,) = worker_table(campaign=campaign)
    assert row.pages == campaign.tasks_per_worker == 10
    assert row.attention_pages >= 1 and row.repeat_pages >= 1
    assert row.counted_pages + row.attention_pages + row.repeat_pages == row.pages
    # Each counted page holds one judgement per criterion.
    assert row.tasks_done == row.counted_pages * len(CRITERIA)
    (pay,) = payment_rows(campaign=campaign)
    assert (pay.pages, pay.counted_pages) == (row.pages, row.counted_pages)
