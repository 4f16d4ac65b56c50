"""The ``rank`` command computes a chunked run's chunks in process, side by side."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from ranking import stats
from ranking.models import RankingRun
from tests.ranking.chunked_runs import _reference, _values

pytestmark = pytest.mark.django_db


RUNS = 60  # three chunks of 25, 25 and 10 runs


@pytest.fixture(autouse=True)
def chunks_of_25(monkeypatch):
    """New runs store chunks of 25 runs here, whatever the default."""
    monkeypatch.setattr(stats, "DEFAULT_CHUNK_RUNS", 25)


def test_the_rank_command_computes_the_chunks_in_process(planted, dispatched, capsys):
    campaign, criterion = planted
    call_command("rank", campaign.slug, "--criterion", criterion.name, "--runs", str(RUNS))
    assert dispatched == [], "the command must not hand chunks to Celery"
    run = RankingRun.objects.get(campaign=campaign)
    assert run.status == RankingRun.Status.DONE and run.chunks.count() == 3
    assert _values(run) == _reference(run)


def test_the_rank_command_computes_full_chunks_side_by_side_with_the_same_numbers(
    planted, dispatched, monkeypatch
):
    """Chunks of 40 (the default): the full ones in one compiled pass where the kernel
    serves, the short one alone; stored per chunk, equal to the pure computation."""
    monkeypatch.setattr(stats, "DEFAULT_CHUNK_RUNS", 40)
    together: list[list[int]] = []
    real = stats.compute_chunks

    def spy(comparisons, **kw):  # type: ignore[no-untyped-def]
        together.append(list(kw["indices"]))
        return real(comparisons, **kw)

    monkeypatch.setattr(stats, "compute_chunks", spy)
    campaign, criterion = planted
    call_command("rank", campaign.slug, "--criterion", criterion.name, "--runs", "100")
    run = RankingRun.objects.get(campaign=campaign)
    assert run.status == RankingRun.Status.DONE and run.runs_done == 100
    assert together == [[0, 1, 2]]
    assert [c.runs for c in run.chunks.order_by("index")] == [40, 40, 20]
    assert _values(run) == _reference(run)
