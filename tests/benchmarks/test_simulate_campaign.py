"""``benchmarks/simulate.py`` reads a campaign from the database and fits the simulator."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.simulate import ratings_from_campaign
from ranking.stats import fit_simulator
from tests.ranking.planted import planted_campaign


@pytest.mark.django_db
def test_a_planted_campaign_is_read_and_its_order_recovered() -> None:
    campaign, criterion = planted_campaign(
        strengths=[60.0, 30.0, 0.0, -30.0, -60.0, -90.0], n_judgements=60, seed=3
    )
    data = ratings_from_campaign(campaign, criterion)
    assert len(data) == 60
    assert data.labels == ["s0", "s1", "s2", "s3", "s4", "s5"]
    assert data.systems.shape == (60, 5) and np.all(data.systems >= 0)
    assert data.worker.max() == 4  # the planted campaign's five workers
    sim = fit_simulator(
        judgement_item=data.item,
        judgement_worker=data.worker,
        systems=data.systems,
        scores=data.scores,
        n_systems=len(data.labels),
    )
    assert np.argsort(-sim.quality).tolist() == [0, 1, 2, 3, 4, 5]


@pytest.mark.django_db
def test_only_magnitude_criteria() -> None:
    campaign, criterion = planted_campaign(strengths=[1.0, 0.0], n_judgements=2)
    criterion.scale = "slider"
    with pytest.raises(ValueError, match="magnitude"):
        ratings_from_campaign(campaign, criterion)
