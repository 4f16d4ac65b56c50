"""Attention checks look like the worker's other pages (walk-through findings)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotations.models import Assignment, Campaign, Task, WorkerCheck
from annotations.selectors.judgements import page_assignments
from annotations.selectors.sessions import session_plan, worker_progress
from annotations.services.assignment import task_next_for
from annotations.services.judgements import judgements_submit_page
from tests.annotations.built_campaigns import built_campaign
from tests.factories import WorkerFactory

pytestmark = pytest.mark.django_db


@given(
    seed=st.integers(0, 2**62),
    worker_id=st.integers(1, 10**6),
    n=st.integers(2, 12),
    attention=st.sampled_from([0.1, 0.2, 0.34, 0.5]),
    repeat=st.sampled_from([0.0, 0.1, 0.25]),
)
def test_no_attention_check_before_the_workers_first_task(seed, worker_id, n, attention, repeat):
    # A check is copied from a task of the worker's own criteria (set-up 2); before the
    # first task the worker has none, and used to get a check of any criterion.
    campaign = Campaign(
        task_seed=seed, tasks_per_worker=n, attention_check_rate=attention, repeat_rate=repeat
    )
    plan = session_plan(campaign=campaign, worker=WorkerFactory.build(pk=worker_id))
    if plan.count("attention") < n - plan.count("repeat"):
        assert plan[0] == "regular", plan


def _ticks(page, degraded: int | None = None):
    """Content checks as a careful worker ticks them: the copy misses information."""
    return {
        a.criterion_id: {
            s: (["missing"] if s == degraded else ["perfect"]) for s in a.display_order
        }
        for a in page
        if a.criterion.content_checks
    }


def _attention_page(campaign: Campaign):
    for _ in range(40):
        worker = WorkerFactory(campaign=campaign)
        while (lead := task_next_for(worker=worker, campaign=campaign)) is not None:
            page = page_assignments(assignment=Assignment.objects.get(pk=lead.pk))
            if lead.task.kind == Task.Kind.ATTENTION:
                return worker, page
            judgements_submit_page(
                assignments=page,
                scores={a.criterion_id: {s: 100 + 10 * s for s in a.display_order} for a in page},
                checks=_ticks(page),
            )
    raise AssertionError("no worker got an attention check")


def test_set_up_1_attention_check_is_a_page_of_every_criterion():
    campaign = built_campaign(
        setup="together",
        n_items=6,
        k=3,
        criteria=("quality", "naturalness", "informativeness"),
        tasks_per_worker=4,
        attention_check_rate=0.5,
        judgements_per_task=3,
    )
    worker, page = _attention_page(campaign)
    done = worker_progress(worker=worker, campaign=campaign).done
    assert [a.criterion.name for a in page] == ["quality", "naturalness", "informativeness"]
    assert {a.task.kind for a in page} == {Task.Kind.ATTENTION}
    assert len({a.task.group for a in page}) == 1
    shown = [
        sorted((to.slot, to.role, to.shown_text) for to in a.task.task_outputs.all()) for a in page
    ]
    assert shown[0] == shown[1] == shown[2]
    assert sum(role == "degraded" for _, role, _ in shown[0]) == 1
    # One page, one check: the degraded copy rated below its original fails nobody, and
    # the page counts once against the worker's tasks.
    degraded = next(slot for slot, role, _ in shown[0] if role == "degraded")
    judgements_submit_page(
        assignments=page,
        scores={
            a.criterion_id: {s: 10 if s == degraded else 100 for s in a.display_order} for a in page
        },
        checks=_ticks(page, degraded),
    )
    checks = WorkerCheck.objects.filter(worker=worker, kind=WorkerCheck.Kind.ATTENTION)
    assert [c.passed for c in checks] == [True]
    assert worker_progress(worker=worker, campaign=campaign).done == done + 1
