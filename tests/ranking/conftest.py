"""Fixtures shared by the tests of this folder."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from annotations.services.criteria import criterion_from_preset
from ranking.services import compute
from tests.annotations.designer_data import judged_campaign, users
from tests.ranking.planted import checked_campaign, planted_campaign
from tests.ranking.running_runs import _running, lost_campaign

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
    """Chunks handed to Celery, recorded instead of sent: (run id, chunk index), a
    message of several chunks as each of its chunks (``groups``: the messages' chunks)."""
    sent = ChunksSent()

    def group(run_id: int, first: int, count: int, queue: str | None = None) -> None:
        sent.groups.append(list(range(first, first + count)))
        sent.extend((run_id, first + k) for k in range(count))

    def one(run_id: int, index: int, queue: str | None = None) -> None:
        sent.groups.append([index])
        sent.append((run_id, index))

    monkeypatch.setattr(compute, "ranking_chunk_dispatch", one)
    monkeypatch.setattr(compute, "ranking_chunks_dispatch", group)
    return sent


class ChunksSent(list[tuple[int, int]]):
    """The chunks sent, and the messages they went in (``groups``)."""

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[list[int]] = []

    def clear(self) -> None:
        super().clear()
        self.groups.clear()


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


@pytest.fixture
def lost(client, settings):
    """A run whose worker stopped beating an hour ago (stale after 10 minutes), its
    campaign's owner signed in: the pages' and the API's sweep tests."""
    campaign, criterion = lost_campaign()
    settings.RANKING_STALE_AFTER = 600
    run = _running(campaign, criterion, heartbeat_ago=3600)
    owner = User.objects.create_user("owner")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    client.force_login(owner)
    return run
