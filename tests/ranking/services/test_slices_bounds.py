"""A ranking's ``where`` is bounded and filtered in linear work (security review, item 10):
20,000 conditions once killed a worker; now more than MAX_CONDITIONS is a 400 naming the
limit on every way in, and the filter is one ``Q`` whose query has one join whatever the
number of conditions."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from annotations.core.slices import MAX_CONDITIONS, SliceError, parse_where
from annotations.selectors.judgements import judgements_counted, slice_q
from ranking.models import RankingRun
from ranking.services import runs as services
from tests.annotations.designer_data import judged_world

pytestmark = pytest.mark.django_db

TOO_MANY = {f"k{i}": "v" for i in range(MAX_CONDITIONS + 1)}


@pytest.fixture
def world() -> tuple[Any, Any]:
    people, campaign, _run = judged_world()
    return campaign, campaign.owner or people["owner"]


def test_the_api_refuses_too_many_conditions_naming_the_limit(world) -> None:
    campaign, owner = world
    api = APIClient()
    api.force_authenticate(owner)
    before = RankingRun.objects.count()
    for where in (TOO_MANY, {f"k{i}": "v" for i in range(20_000)}):
        response = api.post(
            f"/api/campaigns/{campaign.slug}/rankings/",
            {"criterion": "quality", "where": where},
            format="json",
        )
        assert response.status_code == 400, response.content[:200]
        body = response.json()
        assert f"at most {MAX_CONDITIONS} conditions" in body["fields"]["where"][0]
        assert len(body["detail"]) < 500  # the message does not echo 20,000 conditions
    assert RankingRun.objects.count() == before


def test_every_other_way_in_refuses_too_many_conditions(world, client) -> None:
    campaign, owner = world
    with pytest.raises(SliceError, match=f"at most {MAX_CONDITIONS}"):
        parse_where(f"{k}={v}" for k, v in TOO_MANY.items())
    with pytest.raises(services.DomainError, match=f"at most {MAX_CONDITIONS}"):
        services.ranking_run_create(
            campaign=campaign, criterion=campaign.criteria.get(), where=TOO_MANY
        )
    client.force_login(owner)
    query = "&".join(f"where={k}%3D{v}" for k, v in TOO_MANY.items())
    api = APIClient()
    api.force_authenticate(owner)
    response = api.get(f"/api/campaigns/{campaign.slug}/export/?criterion=quality&{query}")
    assert response.status_code == 400 and "at most" in response.json()["detail"]
    page = client.get(f"/campaigns/{campaign.slug}/export/?criterion=quality&{query}")
    assert page.status_code == 400 and b"at most" in page.content


def test_parse_where_stops_reading_at_the_limit() -> None:
    read = 0

    def conditions():
        nonlocal read
        for i in range(1_000_000):
            read += 1
            yield f"k{i}=v"

    with pytest.raises(SliceError):
        parse_where(conditions())
    assert read == MAX_CONDITIONS + 1


def test_a_value_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(SliceError, match="longer than 200"):
        parse_where(["domain=" + "x" * 201])


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


def test_the_ranking_page_refuses_too_many_conditions_in_its_form(world, client) -> None:
    campaign, owner = world
    client.force_login(owner)
    where = ", ".join(f"k{i}=v" for i in range(MAX_CONDITIONS + 1))
    response = client.post(
        f"/rankings/campaign/{campaign.slug}/",
        {
            "criterion": "quality",
            "method": "wmt14",
            "runs": 10,
            "seed": 1,
            "confidence": 0.95,
            "where": where,
        },
    )
    assert response.status_code == 200  # the form again, with the error
    assert f"at most {MAX_CONDITIONS} conditions" in response.content.decode()
    assert not RankingRun.objects.filter(where__has_key="k0").exists()
