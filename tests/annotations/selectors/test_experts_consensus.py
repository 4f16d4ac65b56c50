"""Each crowd worker's agreement with the experts is measured against the experts'
consensus, two coders per output: a worker scoring at random is near 0 (its interval
covers 0), a faithful worker is high, and the value is Krippendorff's alpha as the
``krippendorff`` package computes it for the worker and the experts' mean.

The statistician's review: pooled with each expert as a separate coder, the
expert-expert pairs count too, and a random worker got alpha 0.314 [0.257, 0.370]."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import krippendorff
import numpy as np
import pytest
from rest_framework.test import APIClient

from annotations.exports.experts import expert_report_csv
from annotations.models import Criterion, JudgementScore
from annotations.selectors.experts import expert_report
from annotations.services.finished_judgements import (
    FinishedJudgement,
    FinishedScore,
    judgements_store_finished,
)
from tests.factories import (
    CampaignFactory,
    CriterionFactory,
    ItemFactory,
    OutputFactory,
    SystemFactory,
)

pytestmark = pytest.mark.django_db

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
QUALITY = np.array([10.0, 30.0, 50.0, 70.0, 90.0])
N_ITEMS = 40


def _campaign() -> Criterion:
    """Three experts who agree closely, a worker who scores at random (seeded) and a
    faithful worker, all on the same 40 items of five systems."""
    rng = np.random.default_rng(5)
    campaign = CampaignFactory(slug="consensus")
    criterion = CriterionFactory(
        campaign=campaign, name="quality", scale=Criterion.Scale.SLIDER, scale_settings={}
    )
    systems = [SystemFactory(campaign=campaign, label=f"s{i}") for i in range(5)]
    for n in range(N_ITEMS):
        item = ItemFactory(campaign=campaign, external_id=f"i{n}", position=n)
        for system in systems:
            OutputFactory(item=item, system=system)

    def judged(worker: str, scores) -> list[FinishedJudgement]:
        return [
            FinishedJudgement(
                item_id=f"i{n}",
                worker_id=worker,
                scores=tuple(FinishedScore(f"s{i}", float(v)) for i, v in enumerate(scores(n))),
                started_at=T0,
                submitted_at=T0 + timedelta(seconds=60),
            )
            for n in range(N_ITEMS)
        ]

    def near(noise: float):
        return lambda _n: np.clip(QUALITY + rng.normal(size=5) * noise, 0, 100).round()

    experts = [j for e in ("e1", "e2", "e3") for j in judged(e, near(4.0))]
    crowd = judged("random", lambda _n: rng.integers(0, 101, size=5)) + judged(
        "faithful", near(6.0)
    )
    judgements_store_finished(
        campaign=campaign, criterion=criterion, judgements=experts, experts=True
    )
    judgements_store_finished(campaign=campaign, criterion=criterion, judgements=crowd)
    return criterion


def _oracle(criterion: Criterion, worker: str) -> float:
    """The ``krippendorff`` package on two coders: the worker and the experts' mean."""
    rows = JudgementScore.objects.filter(judgement__criterion=criterion).values_list(
        "judgement__worker__external_id", "judgement__worker__expert", "output_id", "score"
    )
    mine = {o: s for w, _, o, s in rows if w == worker}
    expert: dict[int, list[float]] = {}
    for _, is_expert, o, s in rows:
        if is_expert:
            expert.setdefault(o, []).append(s)
    outputs = sorted(set(mine) & set(expert))
    data = np.array([[mine[o] for o in outputs], [np.mean(expert[o]) for o in outputs]])
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="interval"))


def test_a_random_worker_is_near_zero_and_a_faithful_one_high():
    criterion = _campaign()
    report = expert_report(criterion=criterion, resamples=400)
    by_worker = {row.worker.external_id: row.alpha for row in report.workers}
    random, faithful = by_worker["random"], by_worker["faithful"]
    assert random.n == faithful.n == 5 * N_ITEMS
    # A random clicker: near 0, and its interval covers 0 (pooled with each expert as
    # a coder it came out near 0.3, interval well above 0).
    assert abs(random.value) < 0.15
    assert random.low < 0 < random.high
    assert faithful.value > 0.9 and faithful.low > 0.8
    for worker, estimate in by_worker.items():
        assert estimate.value == pytest.approx(_oracle(criterion, worker), abs=1e-9)


def test_page_api_and_csv_say_what_the_figure_is(client):
    criterion = _campaign()
    campaign = criterion.campaign
    report = expert_report(criterion=criterion, resamples=20)
    meaning = "between the worker and the experts' consensus (the experts' mean score"
    assert meaning in report.alpha_meaning
    rows = list(csv.DictReader(io.StringIO(expert_report_csv(report))))
    assert {r["figure"] for r in rows if r["worker"]} == {"alpha_with_expert_consensus"}
    from django.contrib.auth.models import User

    owner = User.objects.create_user("consensus-owner")
    campaign.owner = owner
    campaign.save(update_fields=["owner"])
    api = APIClient()
    api.force_authenticate(owner)
    data = api.get(f"/api/campaigns/{campaign.slug}/experts/?criterion=quality").json()
    assert meaning in data["alpha_meaning"]
    client.force_login(owner)
    page = client.get(f"/campaigns/{campaign.slug}/experts/?criterion=quality").content.decode()
    assert "the experts&#x27; consensus" in page or "the experts' consensus" in page
    assert "among one crowd worker and the experts" not in page
