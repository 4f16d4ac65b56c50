"""Each metric's bootstrap has its own seeded stream: importing another metric (one
whose name sorts before it) leaves its intervals as they were."""

from __future__ import annotations

import numpy as np
import pytest

from reports.core.correlation import metric_rng
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


def test_metric_streams_are_stable_and_distinct():
    a = metric_rng(3, "BLEU").integers(0, 2**32, size=4)
    assert np.array_equal(a, metric_rng(3, "BLEU").integers(0, 2**32, size=4))
    assert not np.array_equal(a, metric_rng(3, "chrF").integers(0, 2**32, size=4))
    assert not np.array_equal(a, metric_rng(4, "BLEU").integers(0, 2**32, size=4))
