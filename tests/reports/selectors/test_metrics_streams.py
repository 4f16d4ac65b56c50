"""A metric's interval does not move when another metric is imported."""

from __future__ import annotations

import numpy as np
import pytest

from reports.selectors.metrics import metric_correlations
from reports.services.metrics import metric_scores_import
from tests.ranking.planted import planted_campaign

pytestmark = pytest.mark.django_db


def _import(campaign, name: str, rng: np.random.Generator) -> None:
    lines = ["system,item,metric,score"]
    for label, item in campaign.items.values_list("outputs__system__label", "external_id"):
        lines.append(f"{label},{item},{name},{rng.normal():.6f}")
    metric_scores_import(campaign=campaign, data=("\n".join(lines) + "\n").encode(), file="m.csv")


def _intervals(campaign, criterion, name: str) -> list[tuple[float, float]]:
    report = metric_correlations(campaign=campaign, criterion=criterion, seed=3, resamples=50)
    (m,) = [m for m in report.metrics if m.metric == name]
    return [(c.low, c.high) for c in (*m.system, *m.segment)]


def test_a_metrics_interval_does_not_move_when_another_metric_is_imported():
    campaign, criterion = planted_campaign(
        strengths=[60, 20, 0, -20, -60], n_judgements=30, seed=2, k=3
    )
    _import(campaign, "zeta", np.random.default_rng(1))
    alone = _intervals(campaign, criterion, "zeta")
    _import(campaign, "alpha", np.random.default_rng(2))  # sorts first: drawn first
    assert _intervals(campaign, criterion, "zeta") == alone
    assert any(low < high for low, high in alone)  # a real interval, not a point
