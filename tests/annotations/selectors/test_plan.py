"""The plan (annotations/selectors/plan.py) before building equals the built tasks."""

from __future__ import annotations

import pytest

from annotations.core.outputs import OutputRow
from annotations.models import (
    Campaign,
    Task,
)
from annotations.selectors.plan import campaign_plan
from annotations.services.campaigns import campaign_create
from annotations.services.criteria import criterion_from_preset
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build

pytestmark = pytest.mark.django_db


SIX = ("s1", "s2", "s3", "s4", "s5", "s6")


# The plan equals what building produces -------------------------------------------------------


def _ragged(slug: str, k: int) -> Campaign:
    """6 systems, 10 items; systems s5 and s6 lack outputs for most items, item 9 has
    one output only (it cannot be compared) and item 8 two."""
    campaign = campaign_create(slug=slug, outputs_per_task=k, judgements_per_task=3)
    rows = []
    for i in range(10):
        systems: tuple[str, ...] = SIX if i % 3 == 0 else SIX[:4]
        if i == 8:
            systems = SIX[:2]
        if i == 9:
            systems = SIX[:1]
        rows += [OutputRow(item_id=f"i{i}", input="x", system=s, text=f"{s}{i}") for s in systems]
    outputs_store(campaign=campaign, rows=rows)
    criterion_from_preset(campaign=campaign, preset="quality")
    criterion_from_preset(campaign=campaign, preset="naturalness")
    return campaign


@pytest.mark.parametrize("k", [1, 2, 3, 5, 6])
def test_plan_before_building_equals_the_built_tasks(k):
    campaign = _ragged(f"ragged-{k}", k)
    estimate = campaign_plan(campaign=campaign, pay_per_hour=12, seconds_per_task=60)
    assert not estimate.built
    report = tasks_build(campaign=campaign, seed=3)
    built = campaign_plan(campaign=campaign, pay_per_hour=12, seconds_per_task=60)
    assert built.built
    assert estimate.tasks == built.tasks == report.tasks
    assert Task.objects.filter(campaign=campaign, kind="regular").count() == estimate.tasks
    assert (estimate.judgements, estimate.workers, estimate.cost) == (
        built.judgements,
        built.workers,
        built.cost,
    )
    # Comparisons: the same total; per system, each within one task per item and criterion.
    est = {s.label: s.comparisons for s in estimate.per_system}
    got = {s.label: s.comparisons for s in built.per_system}
    assert sum(est.values()) == pytest.approx(sum(got.values()), abs=len(SIX))
    slack = 10 * 2 * (k - 1) * 3
    assert all(abs(est[label] - got[label]) <= slack for label in SIX)


def test_plan_of_the_old_estimate_case_is_exact():
    # 5 systems with outputs for 3 of 6 items each way: the old estimate assumed every
    # system on every item (6 items x ceil(6/5) x 2 criteria = 24 tasks).
    campaign = _ragged("ragged", 5)
    estimate = campaign_plan(campaign=campaign)
    tasks_build(campaign=campaign, seed=9)
    assert campaign_plan(campaign=campaign).tasks == estimate.tasks


def test_the_plan_leaves_out_an_uploaded_output_chosen_as_a_standard_as_the_build_does():
    """The walk-through: the plan said 600 tasks and the build made 597, because the
    output chosen as the standard is left out of every task."""
    from annotations.models import Output
    from annotations.services.criteria import criterion_rankme_set

    campaign = _ragged("ragged-standard", 5)
    standard = Output.objects.get(item__external_id="i0", system__label=SIX[0])
    criterion_rankme_set(criterion=campaign.criteria.get(name="quality"), standard_output=standard)
    estimate = campaign_plan(campaign=campaign)
    tasks_build(campaign=campaign, seed=9)
    assert campaign_plan(campaign=campaign).tasks == estimate.tasks
