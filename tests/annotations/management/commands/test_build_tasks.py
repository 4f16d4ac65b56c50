"""The ``build_tasks`` command prints the balance, refuses what cannot be built, and names the way out."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotations.core.outputs import OutputRow
from annotations.models import Campaign, Task
from annotations.services.criteria import criterion_from_preset
from annotations.services.outputs import outputs_store
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def _campaign(n_systems: int, n_items: int, k: int = 3) -> Campaign:
    campaign = CampaignFactory(slug="toy", outputs_per_task=k)
    criterion_from_preset(campaign=campaign, preset="quality")
    criterion_from_preset(campaign=campaign, preset="naturalness")
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(f"mr{i}", f"name[P{i}]", f"sys{s:02d}", f"P{i} by {s}.")
            for i in range(n_items)
            for s in range(n_systems)
        ],
    )
    return campaign


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_build_tasks_prints_the_balance_and_a_matrix_for_few_systems():
    campaign = _campaign(5, 6)
    out = _run("build_tasks", "toy", "--seed", "9", "--criterion", "quality")
    assert "Built 12 tasks for campaign 'toy' (seed 9, 3 outputs per task, 2 tasks per item" in out
    assert "criterion quality: 12 tasks, 36 task outputs" in out
    assert "tasks per system:   min 7, max 8" in out
    assert "tasks per pair:     min" in out
    matrix = [line for line in out.splitlines() if line.strip().startswith("S") and "sys0" in line]
    assert len(matrix) == 5 and matrix[0].split()[-1] == "sys00"
    assert "naturalness" not in out
    assert Task.objects.filter(campaign=campaign, criterion__name="quality").count() == 12
    campaign.refresh_from_db()
    assert campaign.task_seed == 9


def test_build_tasks_without_a_matrix_for_many_systems_and_with_tasks_per_item():
    _campaign(13, 4, k=5)
    out = _run("build_tasks", "toy", "--tasks-per-item", "1")
    assert "Built 8 tasks" in out and "1 tasks per item" in out
    assert "pairs (diagonal" not in out


def test_build_tasks_refuses_to_build_twice_and_names_the_way_out():
    _campaign(4, 2)
    _run("build_tasks", "toy", "--seed", "1")
    with pytest.raises(CommandError, match=r"No tasks were built: .*already has tasks.*--rebuild"):
        _run("build_tasks", "toy")
    out = _run("build_tasks", "toy", "--seed", "2", "--rebuild")
    assert "replaced 8 earlier tasks" in out


def test_build_tasks_errors():
    with pytest.raises(CommandError, match="No campaign with the slug 'nope'"):
        _run("build_tasks", "nope")
    _campaign(4, 2)
    with pytest.raises(CommandError, match="no criterion 'fluency'"):
        _run("build_tasks", "toy", "--criterion", "fluency")


# -- the rules of the web path hold on the command line too ------------------------------


@pytest.mark.parametrize("status", ["live", "paused", "closed"])
def test_build_tasks_refuses_a_campaign_that_is_not_a_draft(status):
    # The designer's "Build tasks" refuses it; the CLI called tasks_build past that rule.
    campaign = _campaign(4, 3)
    Campaign.objects.filter(pk=campaign.pk).update(status=status)
    with pytest.raises(CommandError, match="only while the campaign is a draft"):
        _run("build_tasks", "toy", "--seed", "1")
    assert not Task.objects.filter(campaign=campaign).exists()
