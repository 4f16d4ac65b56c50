"""``page_key`` and ``tasks_per_regular_page`` (annotations/selectors/sessions.py): the one
rule of what a page is, which the session's progress, the monitor's worker table and
the plan count by."""

from __future__ import annotations

import pytest

from annotations.models import Assignment, Campaign, Task
from annotations.selectors.sessions import page_key, tasks_per_regular_page

REGULAR, ATTENTION, IMPORTED = Task.Kind.REGULAR, Task.Kind.ATTENTION, Task.Kind.IMPORTED
OWN = ("assignment", 7)


@pytest.mark.parametrize(
    ("together", "group", "task_kind", "assignment_kind", "page"),
    [
        # Set-up 1: a regular task's page and an attention check's page are their groups'.
        (True, 3, REGULAR, Assignment.Kind.REGULAR, ("group-regular", 3)),
        (True, 3, ATTENTION, Assignment.Kind.REGULAR, ("group-attention", 3)),
        # A judgement read without its assignment is on the page its task is on.
        (True, 3, REGULAR, None, ("group-regular", 3)),
        # A repeat is a page of one task; so is an imported judgement.
        (True, 3, REGULAR, Assignment.Kind.REPEAT, OWN),
        (True, None, IMPORTED, Assignment.Kind.IMPORTED, OWN),
        (True, 3, IMPORTED, Assignment.Kind.REGULAR, OWN),
        # A task without a group, and every task of set-up 2, is a page of its own.
        (True, None, REGULAR, Assignment.Kind.REGULAR, OWN),
        (False, 3, REGULAR, Assignment.Kind.REGULAR, OWN),
    ],
)
def test_a_page_is_a_group_only_in_set_up_1_and_never_for_a_repeat(
    together, group, task_kind, assignment_kind, page
):
    key = page_key(
        together=together,
        group=group,
        task_kind=task_kind,
        assignment_kind=assignment_kind,
        own=OWN,
    )
    assert key == page


def test_a_regular_page_holds_one_task_per_criterion_in_set_up_1_only():
    together = Campaign(setup=Campaign.Setup.TOGETHER)
    separate = Campaign(setup=Campaign.Setup.SEPARATE)
    assert tasks_per_regular_page(campaign=together, criteria=3) == 3
    assert tasks_per_regular_page(campaign=together, criteria=0) == 1
    assert tasks_per_regular_page(campaign=separate, criteria=3) == 1
