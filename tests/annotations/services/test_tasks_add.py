"""tasks_add (annotations/services/tasks.py): tasks added to built ones, numbered on, each
output at its group's slot (what adaptive design's batches write)."""

from __future__ import annotations

import pytest

from annotations.models import Output, Task
from annotations.services.tasks import TaskRow, tasks_add, tasks_build
from tests.annotations.services.test_tasks import _campaign

pytestmark = pytest.mark.django_db


def test_added_tasks_are_numbered_on_and_their_outputs_slotted_by_group() -> None:
    campaign = _campaign(4, 3, k=2)
    tasks_build(campaign=campaign, seed=1)
    criterion = campaign.criteria.get()
    last = max(Task.objects.filter(campaign=campaign).values_list("number", flat=True))
    item = campaign.items.order_by("pk").first()
    assert item is not None
    a, b, c = Output.objects.filter(item=item).order_by("system__label")[:3]
    before = Task.objects.count()

    first = tasks_add(
        campaign=campaign,
        criterion=criterion,
        rows=[
            TaskRow(item_id=item.pk, language="de", outputs=[(b.pk, b.pk), (a.pk, a.pk)]),
            # c shares a's text (one group): one slot, shown once.
            TaskRow(item_id=item.pk, language="en", outputs=[(a.pk, a.pk), (c.pk, a.pk)]),
        ],
    )

    assert first == last + 1
    added = list(Task.objects.filter(campaign=campaign, number__gt=last).order_by("number"))
    assert [t.number for t in added] == [last + 1, last + 2]
    assert [(t.kind, t.criterion_id, t.item_id, t.language, t.places_held) for t in added] == [
        (Task.Kind.REGULAR, criterion.pk, item.pk, "de", 0),
        (Task.Kind.REGULAR, criterion.pk, item.pk, "en", 0),
    ]
    slots = [
        list(t.task_outputs.order_by("slot", "id").values_list("output_id", "slot")) for t in added
    ]
    assert slots == [[(b.pk, 0), (a.pk, 1)], [(a.pk, 0), (c.pk, 0)]]
    assert Task.objects.count() == before + 2


def test_nothing_to_add_writes_nothing_and_names_the_next_number() -> None:
    campaign = _campaign(3, 2, k=2)
    criterion = campaign.criteria.get()
    assert tasks_add(campaign=campaign, criterion=criterion, rows=[]) == 1
    tasks_build(campaign=campaign, seed=1)
    count = Task.objects.count()
    last = max(Task.objects.values_list("number", flat=True))
    assert tasks_add(campaign=campaign, criterion=criterion, rows=[]) == last + 1
    assert Task.objects.count() == count
