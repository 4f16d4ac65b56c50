"""The simulator refits as production does: one ``bt_normal`` (``ranking.stats``), with
production's number of draws and confidence (``ranking.services.adaptive``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from benchmarks import simulate
from ranking import stats


def test_the_simulator_imports_the_refit_production_uses() -> None:
    assert simulate.bt_normal is stats.bt_normal


def test_a_run_refits_with_productions_draws_and_confidence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.ranking.stats.test_simulate import make

    sim = make(n_systems=6, n_items=40, n_workers=20).with_quality(
        np.array([0.6, 0.3, 0.2, 0.0, -0.1, -0.5])
    )
    truth = simulate.make_truth(sim, reference=600, judgements=100_000)
    seen: list[tuple[int, float]] = []

    def recorded(wins: Any, draws: Any, normals: Any, **options: Any) -> stats.RankingResult:
        result = stats.bt_normal(wins, draws, normals, **options)
        seen.append((normals.shape[0], result.confidence))
        return result

    monkeypatch.setattr(simulate, "bt_normal", recorded)
    simulate.run_design(sim, "contested", truth=truth, seed=0, batch=20, cap=200)
    assert seen and set(seen) == {(stats.ADAPTIVE_REFIT_DRAWS, stats.ADAPTIVE_REFIT_CONFIDENCE)}
