"""Fixtures shared by the tests of this folder."""

from __future__ import annotations

import pytest

from annotations.services.criteria import criterion_from_preset
from ranking.services import compute
from tests.annotations.designer_data import judged_campaign, users
from tests.ranking.planted import checked_campaign, planted_campaign

STRENGTHS = [60.0, 30.0, 0.0, -30.0, -60.0]


@pytest.fixture(autouse=True)
def no_kept_scores():
    """Each test starts without the scores a worker process keeps from its last run."""
    compute._PREPARED.clear()
    yield
    compute._PREPARED.clear()


@pytest.fixture
def planted():
    return planted_campaign(strengths=STRENGTHS, n_judgements=50, seed=21)


@pytest.fixture
def dispatched(monkeypatch):
    """Chunks handed to Celery, recorded instead of sent: (run id, chunk index)."""
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(compute, "ranking_chunk_dispatch", lambda r, i, q=None: sent.append((r, i)))
    return sent


@pytest.fixture
def campaign():
    """A judged campaign with a second criterion nobody judged."""
    people = users()
    campaign = judged_campaign(owner=people["owner"], n_items=4)
    criterion_from_preset(campaign=campaign, preset="naturalness")  # no judgements
    return campaign


@pytest.fixture
def checked():
    return checked_campaign()
