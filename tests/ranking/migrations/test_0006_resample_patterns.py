"""Data migrations of ranking (ranking/migrations/)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(target: list[tuple[str, str]]):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def test_stored_bootstrap_runs_keep_the_pattern_draw():
    """Bradley-Terry and expected-wins runs stored before ``resample`` existed drew their
    replicates over the patterns: 0006 writes that down, so that a retried run draws
    exactly as it did; new runs default to ``auto``; other methods are left alone."""
    from tests.factories import CampaignFactory

    campaign = CampaignFactory()  # annotations stays at its latest migration
    criterion = campaign.criteria.create(name="quality")
    apps = _migrate([("ranking", "0005_adaptive_batches")])
    RankingRun = apps.get_model("ranking", "RankingRun")
    made = {
        method: RankingRun.objects.create(
            campaign_id=campaign.pk,
            criterion_id=criterion.pk,
            method=method,
            parameters=parameters,
            inputs=inputs,
        ).pk
        for method, parameters, inputs in (
            ("bradley_terry", {"ridge": 0.5}, {"parameters_used": {"ridge": 0.5}}),
            ("expected_wins", {}, {}),
            ("wmt14", {"sigma0": 2.0}, {"parameters_used": {"sigma0": 2.0}}),
        )
    }
    apps = _migrate([("ranking", "0006_resample_patterns")])
    RankingRun = apps.get_model("ranking", "RankingRun")
    bt = RankingRun.objects.get(pk=made["bradley_terry"])
    assert bt.parameters == {"ridge": 0.5, "resample": "patterns"}
    assert bt.inputs["parameters_used"] == {"ridge": 0.5, "resample": "patterns"}
    assert RankingRun.objects.get(pk=made["expected_wins"]).parameters == {"resample": "patterns"}
    wmt = RankingRun.objects.get(pk=made["wmt14"])
    assert wmt.parameters == {"sigma0": 2.0}
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
