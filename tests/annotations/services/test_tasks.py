"""tasks_build: the task design written to the database."""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotations.core.outputs import OutputRow
from annotations.models import Campaign, Output, Task, TaskOutput
from annotations.services.criteria import criterion_from_preset
from annotations.services.outputs import outputs_store
from annotations.services.tasks import tasks_build
from common.errors import DomainError
from tests.factories import AssignmentFactory, CampaignFactory

pytestmark = pytest.mark.django_db


def _campaign(
    n_systems: int, n_items: int, *, k: int = 5, criteria: tuple[str, ...] = ("quality",), **fields
) -> Campaign:
    campaign = CampaignFactory(outputs_per_task=k, **fields)
    for preset in criteria:
        criterion_from_preset(campaign=campaign, preset=preset)
    outputs_store(
        campaign=campaign,
        rows=[
            OutputRow(
                item_id=f"mr{i:04d}",
                input=f"name[Place {i}]",
                system=f"sys{s:02d}",
                text=f"Place {i} as written by system {s}.",
            )
            for i in range(n_items)
            for s in range(n_systems)
        ],
    )
    return campaign


def _design(campaign: Campaign, criterion: str) -> list[tuple[str, int, tuple[str, ...]]]:
    """(item, number, systems) of every task of a criterion, from the database."""
    systems: dict[int, list[str]] = defaultdict(list)
    for task_id, label in TaskOutput.objects.filter(
        task__campaign=campaign, task__criterion__name=criterion
    ).values_list("task_id", "output__system__label"):
        systems[task_id].append(label)
    return sorted(
        (item, number, tuple(sorted(systems[pk])))
        for pk, item, number in Task.objects.filter(
            campaign=campaign, criterion__name=criterion
        ).values_list("pk", "item__external_id", "number")
    )


def test_every_item_and_criterion_gets_balanced_tasks_of_k_distinct_systems():
    campaign = _campaign(8, 12, k=3, criteria=("quality", "naturalness"))
    report = tasks_build(campaign=campaign, seed=7)

    assert report.seed == 7 and report.k == 3 and report.tasks_per_item == 3
    assert [c.criterion for c in report.criteria] == ["quality", "naturalness"]
    for name in ("quality", "naturalness"):
        design = _design(campaign, name)
        assert len(design) == 12 * 3
        assert [number for _, number, _ in sorted(design, key=lambda d: d[1])] == list(range(1, 37))
        assert all(len(set(systems)) == 3 for _, _, systems in design)
        by_item: dict[str, set[str]] = defaultdict(set)
        for item, _, systems in design:
            by_item[item].update(systems)
        assert all(len(shown) == 8 for shown in by_item.values())  # every output judged
        counts = Counter(s for _, _, systems in design for s in systems)
        assert max(counts.values()) - min(counts.values()) <= 1
        pairs = Counter(p for _, _, systems in design for p in combinations(systems, 2))
        reported = next(c for c in report.criteria if c.criterion == name)
        assert reported.tasks == 36 and reported.task_outputs == 108
        assert reported.count_min == min(counts.values())
        assert reported.pair_max == max(pairs.values())
        assert reported.pair_max - reported.pair_min <= 3
    campaign.refresh_from_db()
    assert campaign.task_seed == 7
    assert report.tasks == 72
    assert "72 tasks" in report.summary


def test_the_summary_writes_a_range_that_is_one_number_once():
    """6 systems in tasks of 3 on 4 items: every system in exactly 4 tasks (was "4-4")."""
    report = tasks_build(campaign=_campaign(6, 4, k=3), seed=1)
    [c] = report.criteria
    assert c.count_min == c.count_max == 4
    assert "each system in 4, each pair together in" in report.summary


def test_same_seed_same_tasks_other_seed_other_tasks():
    campaign = _campaign(7, 10, k=3)
    tasks_build(campaign=campaign, seed=11)
    first = _design(campaign, "quality")
    tasks_build(campaign=campaign, seed=11, rebuild=True)
    assert _design(campaign, "quality") == first
    tasks_build(campaign=campaign, seed=12, rebuild=True)
    assert _design(campaign, "quality") != first


def test_a_criterion_built_alone_gets_the_tasks_it_gets_with_the_others():
    together = _campaign(6, 8, k=4, criteria=("quality", "naturalness"))
    alone = _campaign(6, 8, k=4, criteria=("quality", "naturalness"))
    tasks_build(campaign=together, seed=3)
    tasks_build(campaign=alone, seed=3, criteria=["naturalness"])
    assert _design(alone, "naturalness") == _design(together, "naturalness")
    assert not Task.objects.filter(campaign=alone, criterion__name="quality").exists()
    # Without a seed the stored one is reused, so one seed describes the campaign.
    report = tasks_build(campaign=alone, criteria=["quality"])
    assert report.seed == 3
    assert _design(alone, "quality") == _design(together, "quality")


def test_without_a_seed_a_fresh_one_is_drawn_and_stored():
    campaign = _campaign(4, 3, k=2)
    report = tasks_build(campaign=campaign)
    campaign.refresh_from_db()
    assert campaign.task_seed == report.seed
    assert 0 <= report.seed < 2**63


def test_building_again_is_refused_unless_rebuild_and_rebuild_needs_no_assignments():
    campaign = _campaign(5, 4, k=2)
    tasks_build(campaign=campaign, seed=1)
    with pytest.raises(DomainError, match=r"already has tasks for quality.*--rebuild"):
        tasks_build(campaign=campaign, seed=1)
    report = tasks_build(campaign=campaign, seed=2, rebuild=True)
    assert report.deleted_tasks == 12
    assert Task.objects.filter(campaign=campaign).count() == 12

    AssignmentFactory(task=Task.objects.filter(campaign=campaign).first())
    before = _design(campaign, "quality")
    with pytest.raises(DomainError, match=r"1 assignment\(s\) were handed out"):
        tasks_build(campaign=campaign, seed=3, rebuild=True)
    assert _design(campaign, "quality") == before
    campaign.refresh_from_db()
    assert campaign.task_seed == 2


def test_imported_tasks_are_left_alone():
    campaign = _campaign(3, 2, k=3)
    criterion = campaign.criteria.get()
    item = campaign.items.first()
    assert item is not None
    imported = Task.objects.create(
        campaign=campaign, criterion=criterion, item=item, kind=Task.Kind.IMPORTED
    )
    tasks_build(campaign=campaign, seed=1)
    tasks_build(campaign=campaign, seed=1, rebuild=True)
    assert Task.objects.filter(pk=imported.pk).exists()
    assert Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR).count() == 2


def test_one_system_is_refused_and_fewer_systems_than_k_make_one_task():
    lone = _campaign(1, 3)
    with pytest.raises(DomainError, match=r"1 system.*at least two systems"):
        tasks_build(campaign=lone, seed=0)
    assert not Task.objects.filter(campaign=lone).exists()

    few = _campaign(3, 4, k=5)
    report = tasks_build(campaign=few, seed=0)
    assert report.k == 3 and report.tasks_per_item == 1
    assert all(systems == ("sys00", "sys01", "sys02") for _, _, systems in _design(few, "quality"))


def test_tasks_per_item_option():
    campaign = _campaign(10, 6, k=5)
    report = tasks_build(campaign=campaign, seed=5, tasks_per_item=1)
    design = _design(campaign, "quality")
    assert report.tasks_per_item == 1 and len(design) == 6
    counts = Counter(s for _, _, systems in design for s in systems)
    assert sorted(counts.values()) == [3] * 10


@pytest.mark.parametrize("merge", [True, False])
def test_identical_outputs_share_a_slot_when_merging(merge):
    campaign = _campaign(3, 2, k=3, merge_identical_outputs=merge)
    twin = Output.objects.get(item__external_id="mr0000", system__label="sys01")
    twin.text = Output.objects.get(item__external_id="mr0000", system__label="sys00").text
    twin.save(update_fields=["text"])
    from annotations.services.outputs import outputs_detect_identical

    assert outputs_detect_identical(campaign=campaign) == 1
    report = tasks_build(campaign=campaign, seed=0)

    slots = dict(
        TaskOutput.objects.filter(task__item__external_id="mr0000").values_list(
            "output__system__label", "slot"
        )
    )
    assert len(slots) == 3
    if merge:
        assert slots["sys00"] == slots["sys01"] != slots["sys02"]
        assert sorted(set(slots.values())) == [0, 1]
        assert report.criteria[0].merged_outputs == 1
        # the summary said "tasks of 3 outputs" while this task shows 2 texts
        assert (
            "1 output is identical to another in its task and shown once with it, so some "
            "tasks show fewer than 3 texts" in report.summary
        )
    else:
        assert sorted(slots.values()) == [0, 1, 2]
        assert report.criteria[0].merged_outputs == 0
        assert "identical" not in report.summary
    other = TaskOutput.objects.filter(task__item__external_id="mr0001").values_list(
        "slot", flat=True
    )
    assert sorted(other) == [0, 1, 2]


def test_missing_outputs_are_not_shown():
    campaign = _campaign(4, 3, k=2)
    Output.objects.filter(item__external_id="mr0001", system__label__in=["sys00", "sys01"]).delete()
    Output.objects.filter(
        item__external_id="mr0002", system__label__in=["sys00", "sys01", "sys02"]
    ).delete()
    report = tasks_build(campaign=campaign, seed=0)
    design = _design(campaign, "quality")
    assert {s for item, _, systems in design if item == "mr0001" for s in systems} == {
        "sys02",
        "sys03",
    }
    assert not [d for d in design if d[0] == "mr0002"]
    assert report.criteria[0].skipped_items == 1


def test_unknown_or_missing_criteria_and_bad_arguments_are_refused():
    campaign = _campaign(3, 2, k=2)
    with pytest.raises(DomainError, match=r"no criterion 'fluency' \(it has: quality\)"):
        tasks_build(campaign=campaign, criteria=["fluency"])
    with pytest.raises(DomainError, match="seed"):
        tasks_build(campaign=campaign, seed=-1)
    with pytest.raises(DomainError, match="Tasks per item"):
        tasks_build(campaign=campaign, tasks_per_item=0)
    bare = CampaignFactory()
    with pytest.raises(DomainError, match="no criteria"):
        tasks_build(campaign=bare)


def test_query_count_does_not_grow_with_the_campaign():
    def queries(items: int) -> int:
        campaign = _campaign(6, items, k=3, criteria=("quality", "naturalness"))
        with CaptureQueriesContext(connection) as ctx:
            tasks_build(campaign=campaign, seed=0)
        return len(ctx.captured_queries)

    # No query per task or per output: 4 and 20 items need the same statements (both fit
    # one bulk insert batch, even with SQLite's 999 parameters per statement).
    assert queries(4) == queries(20)


def test_e2e_sized_campaign_builds_balanced():
    # Its speed is measured by benchmarks/, not here.
    campaign = _campaign(21, 630, k=5, criteria=("quality", "naturalness"))
    report = tasks_build(campaign=campaign, seed=2017)
    assert report.tasks == 6300
    assert Task.objects.filter(campaign=campaign).count() == 6300
    assert TaskOutput.objects.filter(task__campaign=campaign).count() == 31500
    assert all(c.count_min == c.count_max == 750 for c in report.criteria)


def _e2e_rows(folder: Path) -> list[OutputRow]:
    rows = []
    for path in sorted((folder / "system_outputs").glob("*.tsv")):
        with path.open(newline="", encoding="utf-8") as f:
            reader = csv.reader(f, delimiter="\t")
            next(reader)
            for i, (mr, text) in enumerate(row for row in reader if row):
                rows.append(OutputRow(item_id=f"mr{i:03d}", input=mr, system=path.stem, text=text))
    return rows


def test_real_e2e_outputs(e2e_dir):
    campaign = CampaignFactory(outputs_per_task=5)
    criterion_from_preset(campaign=campaign, preset="quality")
    stored = outputs_store(campaign=campaign, rows=_e2e_rows(e2e_dir))
    assert stored.systems == 21 and stored.items == 630
    report = tasks_build(campaign=campaign, seed=2017)
    quality = report.criteria[0]
    assert quality.tasks == 3150
    assert quality.count_min == quality.count_max == 750
    assert quality.pair_max - quality.pair_min <= 3
    # E2E systems often produce identical texts for an MR: those share a slot.
    assert quality.merged_outputs > 0
    assert quality.task_outputs == 3150 * 5


# Set-up 1 ("together") and PlainME (k = 1) ---------------------------------------------


def _slots(task: Task) -> list[tuple[int, int]]:
    return sorted(task.task_outputs.values_list("slot", "output_id"))


def test_together_builds_one_task_per_criterion_with_the_same_outputs_and_group():
    campaign = _campaign(6, 4, k=3, criteria=("quality", "naturalness"), setup="together")
    report = tasks_build(campaign=campaign, seed=3)
    quality = list(Task.objects.filter(campaign=campaign, criterion__name="quality"))
    natural = list(Task.objects.filter(campaign=campaign, criterion__name="naturalness"))
    assert len(quality) == len(natural) == 4 * 2 and report.tasks == 16
    by_group = {t.group or 0: t for t in natural}
    assert sorted(by_group) == sorted(t.group or 0 for t in quality) == list(range(1, 9))
    for task in quality:
        sibling = by_group[task.group or 0]
        assert sibling.item_id == task.item_id and sibling.number == task.number
        assert _slots(sibling) == _slots(task) and len(_slots(task)) == 3
    # Each criterion still reports (and has) its own balanced design.
    assert [c.criterion for c in report.criteria] == ["quality", "naturalness"]
    assert all(c.count_max - c.count_min <= 1 for c in report.criteria)


def test_separate_set_up_leaves_groups_empty_and_designs_each_criterion_on_its_own():
    campaign = _campaign(6, 4, k=3, criteria=("quality", "naturalness"))
    tasks_build(campaign=campaign, seed=3)
    assert not Task.objects.filter(campaign=campaign, group__isnull=False).exists()
    assert _design(campaign, "quality") != _design(campaign, "naturalness")


def test_together_refuses_to_build_some_criteria_only():
    campaign = _campaign(4, 2, k=2, criteria=("quality", "naturalness"), setup="together")
    with pytest.raises(DomainError, match="all criteria of an item on one page"):
        tasks_build(campaign=campaign, seed=0, criteria=["quality"])
    assert not Task.objects.filter(campaign=campaign).exists()


def test_plainme_one_output_per_task_spread_evenly_over_systems():
    campaign = _campaign(5, 7, k=1)
    report = tasks_build(campaign=campaign, seed=11)
    design = _design(campaign, "quality")
    assert report.k == 1 and report.tasks_per_item == 5 and len(design) == 35
    assert all(len(systems) == 1 for _, _, systems in design)
    # Every output of every item once: each system in exactly 7 tasks.
    assert Counter(s for _, _, systems in design for s in systems) == {
        f"sys{s:02d}": 7 for s in range(5)
    }
    assert TaskOutput.objects.filter(task__campaign=campaign).values("slot").distinct().count() == 1

    fewer = _campaign(5, 8, k=1)
    tasks_build(campaign=fewer, seed=11, tasks_per_item=2)
    counts = Counter(s for _, _, systems in _design(fewer, "quality") for s in systems)
    assert sum(counts.values()) == 16 and max(counts.values()) - min(counts.values()) <= 1


def test_plainme_items_with_one_system_are_judged_too():
    campaign = _campaign(3, 2, k=1)
    Output.objects.filter(item__external_id="mr0001").exclude(system__label="sys00").delete()
    report = tasks_build(campaign=campaign, seed=1)
    assert report.criteria[0].skipped_items == 0
    assert [item for item, _, _ in _design(campaign, "quality")].count("mr0001") == 1


def test_plainme_plan_counts_no_within_task_comparisons():
    from annotations.selectors.plan import campaign_plan

    campaign = _campaign(4, 3, k=1)
    tasks_build(campaign=campaign, seed=2)
    plan = campaign_plan(campaign=campaign)
    assert all(system.comparisons == 0 for system in plan.per_system)


def test_plainme_design_preset_sets_one_output_and_a_magnitude_criterion():
    from annotations.models import Criterion
    from annotations.services.tasks import campaign_design_preset_apply

    campaign = _campaign(4, 3, k=5, criteria=())
    campaign = campaign_design_preset_apply(campaign=campaign, preset="plainme")
    assert (campaign.outputs_per_task, campaign.setup) == (1, "separate")
    criterion = campaign.criteria.get()
    assert criterion.scale == Criterion.Scale.MAGNITUDE and criterion.standard == 100
    report = tasks_build(campaign=campaign, seed=0)
    assert report.k == 1 and report.tasks == 12
    # Built tasks fix the design: another preset is refused, nothing changes.
    with pytest.raises(DomainError, match="can no longer change"):
        campaign_design_preset_apply(campaign=campaign, preset="rankme-together")
    campaign.refresh_from_db()
    assert campaign.outputs_per_task == 1 and campaign.criteria.count() == 1


def test_rankme_together_preset_and_unknown_preset():
    from annotations.services.tasks import campaign_design_preset_apply

    campaign = _campaign(6, 2, k=2, criteria=("quality",))
    campaign = campaign_design_preset_apply(campaign=campaign, preset="rankme-together")
    assert (campaign.outputs_per_task, campaign.setup) == (5, "together")
    assert sorted(campaign.criteria.values_list("name", flat=True)) == [
        "informativeness",
        "naturalness",
        "quality",
    ]
    with pytest.raises(DomainError, match="Unknown design preset 'nope'"):
        campaign_design_preset_apply(campaign=campaign, preset="nope")


def test_setup_is_a_design_setting_fixed_once_tasks_are_built():
    from annotations.services.campaigns import campaign_settings_update

    campaign = _campaign(4, 2, k=2, criteria=("quality", "naturalness"))
    campaign = campaign_settings_update(campaign=campaign, setup="together")
    assert campaign.setup == "together"
    tasks_build(campaign=campaign, seed=0)
    with pytest.raises(DomainError, match="no longer change"):
        campaign_settings_update(campaign=campaign, setup="separate")


@pytest.mark.parametrize("setup", ["separate", "together"])
def test_an_output_chosen_as_standard_is_never_rated_in_tasks_built_after(setup):
    from annotations.services.criteria import criterion_rankme_set

    campaign = _campaign(4, 3, k=2, criteria=("quality", "naturalness"), setup=setup)
    standard = Output.objects.get(item__external_id="mr0001", system__label="sys02")
    # an identical text of another system shares the standard's text: not rated either
    twin = Output.objects.get(item__external_id="mr0001", system__label="sys03")
    Output.objects.filter(pk=twin.pk).update(text=standard.text, canonical=standard)
    quality = campaign.criteria.get(name="quality")
    criterion_rankme_set(criterion=quality, standard_output=standard)
    from annotations.selectors.plan import campaign_plan

    assert campaign_plan(campaign=campaign).standards_left_out == [
        "sys02 for mr0001",
        "sys03 for mr0001",
    ]
    report = tasks_build(campaign=campaign, seed=3)
    # said, naming the systems and the item (a reviewer's Likert criterion lost two
    # systems of an item, with only small print under the picker to say so)
    assert "Not rated, in any criterion: sys02 for mr0001, sys03 for mr0001" in report.summary
    # mr0001's tasks have fewer outputs: "tasks of up to k" (it said "of 5" for tasks of 4)
    assert f"tasks of up to {report.k} outputs" in report.summary
    rated = set(TaskOutput.objects.filter(task__campaign=campaign).values_list("output", flat=True))
    assert standard.pk not in rated and twin.pk not in rated
    # every other output is still rated
    others = Output.objects.filter(item__campaign=campaign).exclude(pk__in=[standard.pk, twin.pk])
    assert set(others.values_list("pk", flat=True)) <= rated
