"""Reads for adaptive design (ranking/selectors/adaptive.py): open places, the earlier
refits, and a batch as the page shows it."""

from __future__ import annotations

from typing import Any

import pytest

from ranking.models import AdaptiveBatch
from ranking.selectors import adaptive as selectors
from ranking.services import adaptive
from tests.ranking.adaptive_data import STRENGTHS, adaptive_campaign, judge_all

pytestmark = pytest.mark.django_db


def _batch(state: list[dict[str, Any]], decision: dict[str, Any] | None = None) -> AdaptiveBatch:
    return AdaptiveBatch(state=state, decision=decision or {})


def test_clusters_read_best_first_and_nothing_before_any_judgement():
    state: list[dict[str, Any]] = [
        {"label": "c", "value": 0.1, "cluster": 2},
        {"label": "a", "value": 0.9, "cluster": 1},
        {"label": "d", "value": None, "cluster": None},
        {"label": "b", "value": 0.5, "cluster": 1},
        {"label": "e", "value": 0.1, "cluster": 2},
    ]
    assert selectors.adaptive_clusters_text(_batch(state)) == "a b | c e"
    assert selectors.adaptive_clusters_text(_batch([{"label": "a", "cluster": None}])) == ""


def test_a_batch_row_names_its_gaps_boundaries_and_unplaced_tasks():
    batch = _batch(
        [{"label": "a", "value": 1.0, "cluster": 1}],
        {"contested_gaps": ["a | b"], "boundary_systems": ["a", "b"], "unplaced": 2},
    )
    row = selectors.adaptive_batch_row(batch)
    assert row == {
        "batch": batch,
        "clusters": "a",
        "gaps": ["a | b"],
        "boundary": ["a", "b"],
        "unplaced": 2,
    }
    assert selectors.adaptive_batch_row(_batch([]))["unplaced"] == 0


def test_the_reads_a_batch_decides_on():
    campaign = adaptive_campaign()
    criterion = campaign.criteria.get()
    assert selectors.adaptive_open_places(criterion=criterion) == 30
    assert selectors.adaptive_batch_last_number(criterion=criterion) == 0
    assert selectors.adaptive_campaigns_live() == [campaign]
    assert [label for _, label in selectors.adaptive_systems(campaign=campaign)] == sorted(
        STRENGTHS
    )
    rows = selectors.adaptive_output_rows(campaign=campaign)
    assert len(rows) == 30 and all(len(systems) == 6 for systems in rows.values())
    assert sorted(selectors.adaptive_task_rows(criterion=criterion)) == sorted(rows)
    judge_all(campaign)
    first = adaptive.adaptive_batch_build(criterion=criterion)
    assert first is not None
    second = adaptive.adaptive_batch_now(criterion=criterion)
    assert selectors.adaptive_batch_last_number(criterion=criterion) == 2
    assert selectors.adaptive_refits_before(criterion=criterion, number=3, limit=5) == [
        (second.state, second.judgements),
        (first.state, first.judgements),
    ]
    status = selectors.adaptive_status(campaign=campaign)
    assert [s.criterion for s in status] == [criterion.name]
    assert status[0].latest == second and status[0].batches == [second, first]
    sections = selectors.adaptive_status_rows(campaign=campaign)
    assert [row["batch"] for row in sections[0]["rows"]] == [second, first]
