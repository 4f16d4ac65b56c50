"""A slice's filter (annotations/selectors/judgements.py) is built in one step, one condition each."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from annotations.core.slices import MAX_CONDITIONS
from annotations.selectors.judgements import judgements_counted, slice_q
from ranking.services import runs as services
from tests.annotations.designer_data import judged_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> tuple[Any, Any]:
    people, campaign, _run = judged_world()
    return campaign, campaign.owner or people["owner"]


def _combines(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    combine = Q._combine  # type: ignore[attr-defined]

    def counting(self: Q, other: Any, conn: str) -> Any:
        calls.append(1)
        return combine(self, other, conn)

    monkeypatch.setattr(Q, "_combine", counting)
    return calls


@pytest.mark.parametrize("n", [1, MAX_CONDITIONS // 2, MAX_CONDITIONS])
def test_the_filter_is_built_in_one_step(monkeypatch, n) -> None:
    """No chain of ``&=`` (each step copies every condition so far: quadratic)."""
    calls = _combines(monkeypatch)
    where = {f"k{i}": "v" for i in range(n)}
    q = slice_q(where)
    assert calls == [] and len(q.children) == n


def test_the_query_grows_by_one_condition_per_condition_and_no_join(world) -> None:
    """The same query whatever the number of conditions, one lookup longer per condition
    (same-width names, so each adds the same text), and one query to check a slice."""
    campaign, _owner = world
    criterion = campaign.criteria.get()
    joins, length, queries = {}, {}, {}
    for n in (1, 2, MAX_CONDITIONS):
        where = {f"k{i:02d}": "v" for i in range(n)}
        sql = str(judgements_counted(criterion=criterion, where=where).query)
        joins[n], length[n] = sql.count("JOIN"), len(sql)
        with CaptureQueriesContext(connection) as ctx, pytest.raises(services.DomainError):
            services.ranking_slice_check(criterion=criterion, where=where)
        queries[n] = len(ctx.captured_queries)
    assert joins[1] == joins[2] == joins[MAX_CONDITIONS]
    step = length[2] - length[1]
    assert length[MAX_CONDITIONS] - length[1] == (MAX_CONDITIONS - 1) * step
    assert queries[1] == queries[2] == queries[MAX_CONDITIONS] == 1
