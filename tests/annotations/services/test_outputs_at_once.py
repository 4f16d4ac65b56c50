"""Two uploads of outputs to one campaign at once (two tabs, a retried import job):
``outputs_store`` holds the campaign's row lock, so the second adds its systems and items
after the first instead of inserting the same ones (an outside review saw a unique
constraint's refusal fail the second import on PostgreSQL)."""

from __future__ import annotations

import pytest
from django.db import connection

from annotations.core.outputs import OutputRow
from annotations.models import Item, Output, System
from annotations.services.outputs import outputs_store
from common.errors import DomainError
from tests.at_once import at_once
from tests.factories import CampaignFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="Row locks (SELECT ... FOR UPDATE) need PostgreSQL; SQLite serialises writes.",
    ),
]


def _rows(systems: list[str], items: int = 30) -> list[OutputRow]:
    return [
        OutputRow(item_id=f"m{i}", input=f"name[Place {i}]", system=s, text=f"{s} says {i}.")
        for s in systems
        for i in range(items)
    ]


def test_two_uploads_of_different_outputs_at_once_both_land_on_postgresql() -> None:
    """Two files sharing systems and items, each with outputs of its own: both stored."""
    campaign = CampaignFactory()
    files = iter([_rows(["a", "b", "c"]), _rows(["c", "d"], items=0) + _rows(["d"])])
    outcomes = at_once(lambda: outputs_store(campaign=campaign, rows=next(files)), times=2)
    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    assert sorted(System.objects.values_list("label", flat=True)) == ["a", "b", "c", "d"]
    assert Item.objects.filter(campaign=campaign).count() == 30
    assert Output.objects.filter(system__campaign=campaign).count() == 4 * 30


def test_one_file_uploaded_twice_at_once_is_stored_once_on_postgresql() -> None:
    """The same file twice at once: one import stores it, the other is refused by name."""
    campaign = CampaignFactory()
    outcomes = at_once(lambda: outputs_store(campaign=campaign, rows=_rows(["a", "b"])), times=2)
    refused = [o for o in outcomes if isinstance(o, DomainError)]
    assert len(refused) == 1 and "already has an output" in str(refused[0]), outcomes
    assert Output.objects.filter(system__campaign=campaign).count() == 2 * 30
