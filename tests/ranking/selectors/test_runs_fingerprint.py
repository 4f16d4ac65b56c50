"""A ranking's fingerprint identifies what was ranked by content, never by database ids:
the same judgements imported twice (two campaigns, or two installations) give the same
fingerprint; one changed score gives another."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.outputs import outputs_import
from annotations.importing.ratings import ratings_import
from annotations.models import JudgementScore
from annotations.services.criteria import criterion_from_preset
from ranking.selectors.runs import ranking_scores
from ranking.services.compute import ranking_run_compute
from ranking.services.runs import ranking_run_create
from tests.annotations.importing.conftest import (
    good_quality_rows,
    make_e2e_folder,
    write_ratings,
)
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def _imported(tmp_path: Path, name: str):
    campaign = CampaignFactory()
    outputs_import(campaign=campaign, path=make_e2e_folder(tmp_path / name, ratings=False))
    criterion = criterion_from_preset(campaign=campaign, preset="quality")
    path = write_ratings(tmp_path / f"{name}-quality.csv", good_quality_rows())
    ratings_import(campaign=campaign, criterion=criterion, path=path)
    return campaign, criterion


def _run(campaign, criterion, **kwargs):
    run = ranking_run_create(
        campaign=campaign, criterion=criterion, queue=False, runs=20, seed=3, **kwargs
    )
    return ranking_run_compute(run=run)


def test_the_same_judgements_imported_twice_have_the_same_fingerprint(tmp_path):
    first = _imported(tmp_path, "a")
    second = _imported(tmp_path, "b")
    # different rows: other ids for campaigns, systems, items, workers and judgements
    assert first[0].pk != second[0].pk
    a, b = ranking_scores(criterion=first[1]), ranking_scores(criterion=second[1])
    assert a.fingerprint == b.fingerprint
    run_a, run_b = _run(*first), _run(*second)
    assert run_a.status == run_b.status == "done", (run_a.error, run_b.error)
    assert run_a.fingerprint == run_b.fingerprint
    assert run_a.inputs["judgements_fingerprint"] == a.fingerprint


def test_a_changed_score_or_seed_or_method_changes_the_fingerprint(tmp_path):
    first = _imported(tmp_path, "a")
    second = _imported(tmp_path, "b")
    run_a = _run(*first)
    score = JudgementScore.objects.filter(judgement__criterion=second[1]).order_by("pk").first()
    assert score is not None
    score.score += 1
    score.save(update_fields=["score"])
    assert ranking_scores(criterion=first[1]).fingerprint != (
        ranking_scores(criterion=second[1]).fingerprint
    )
    assert _run(*second).fingerprint != run_a.fingerprint
    other_seed = ranking_run_compute(
        run=ranking_run_create(campaign=first[0], criterion=first[1], queue=False, runs=20, seed=4)
    )
    assert other_seed.fingerprint != run_a.fingerprint
    assert other_seed.inputs["judgements_fingerprint"] == run_a.inputs["judgements_fingerprint"]
    other_method = _run(*first, method="bradley_terry")
    assert other_method.fingerprint != run_a.fingerprint
