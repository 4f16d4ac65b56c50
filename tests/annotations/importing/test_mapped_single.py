"""One output per row: CrowdFlower exports of Likert and PlainME studies (``team``,
``ref``, ``quality`` without a slot number), imported through a mapping with one slot."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotations.importing.mapped import mapped_import
from annotations.importing.mappings import mapping_parse
from annotations.models import Criterion, Judgement, JudgementScore
from annotations.selectors.agreement import criterion_agreement
from common.errors import DomainError
from tests.annotations.importing.conftest import write_csv
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


HEADER = ["_unit_id", "_worker_id", "mr_id", "mr", "team", "ref", "quality"]


def _rows() -> list[list[str]]:
    rows = [HEADER]
    # Three workers rate the same output of each of four systems on two MRs (1-6 Likert).
    for mr in (1, 2):
        for s, system in enumerate(("alpha", "beta", "gamma", "delta")):
            for w, worker in enumerate(("w1", "w2", "w3")):
                score = 1 + (s + w + mr) % 6
                rows.append(
                    [
                        f"u{mr}{s}",
                        worker,
                        str(mr),
                        f"MR {mr}",
                        system,
                        f"{system} on {mr}",
                        str(score),
                    ]
                )
    return rows


MAPPING = {
    "format": "csv",
    "worker": "_worker_id",
    "unit": "_unit_id",
    "item": "mr_id",
    "input": "mr",
    "slots": 1,
    "system": "team",
    "output": "ref",
    "criteria": [{"name": "quality", "score": "quality", "scale": "likert"}],
}


def test_one_output_per_row_imports_and_means_and_agreement_work(tmp_path: Path) -> None:
    campaign = CampaignFactory()
    path = write_csv(tmp_path / "likert.csv", _rows())
    result = mapped_import(campaign=campaign, path=path, mapping=mapping_parse(MAPPING))
    assert (result.judgements, result.rows, result.outputs_created) == (24, 24, 8)
    criterion = Criterion.objects.get(campaign=campaign, name="quality")
    assert criterion.scale == Criterion.Scale.LIKERT
    scores = JudgementScore.objects.filter(judgement__criterion=criterion)
    assert scores.count() == 24 and set(scores.values_list("rank", flat=True)) == {1.0}
    # Three workers per unit share its task: agreement over the units (interval alpha of
    # the scores) is computed, not refused.
    assert Judgement.objects.filter(criterion=criterion).values("task").distinct().count() == 8
    agreement = criterion_agreement(criterion=criterion)
    assert agreement.score_alpha is not None


def test_a_ranking_of_one_output_judgements_says_there_are_no_comparisons(tmp_path: Path) -> None:
    from ranking.models import RankingRun
    from ranking.services.compute import ranking_run_compute
    from ranking.services.runs import ranking_run_create

    campaign = CampaignFactory()
    path = write_csv(tmp_path / "likert.csv", _rows())
    mapped_import(campaign=campaign, path=path, mapping=mapping_parse(MAPPING))
    criterion = Criterion.objects.get(campaign=campaign, name="quality")
    run = ranking_run_create(campaign=campaign, criterion=criterion, runs=10, queue=False)
    with pytest.raises(DomainError):  # recorded on the run, then raised
        ranking_run_compute(run=run, fan_out=False)
    run = RankingRun.objects.get(pk=run.pk)
    assert run.status == RankingRun.Status.FAILED
    assert "every judgement scores one output alone" in run.error
    assert "means" in run.error
