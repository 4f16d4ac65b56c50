"""The adaptive design's refit is the simulator's: the same judgements give production
(``ranking.services.adaptive``) and ``benchmarks/simulate.py`` the same ranks and
clusters, so the stop rule's simulated error rates describe production.

The defect: production refitted with WMT14 TrueSkill, 64 runs (ranges covering 93.75%,
not 95%), while the simulator that validated the stop rule refitted with Bradley-Terry
and its normal approximation; on the same simulated answers the two stopped at very
different times."""

from __future__ import annotations

import numpy as np
import pytest
from django.utils import timezone

from annotations.models import Task, Worker
from benchmarks import simulate
from ranking import stats
from ranking.models import AdaptiveBatch
from ranking.services import adaptive
from tests.factories import judgement_of
from tests.ranking.adaptive_data import STRENGTHS, adaptive_campaign, judge_all
from tests.ranking.stats.test_simulate import make

pytestmark = pytest.mark.django_db

LABELS = sorted(STRENGTHS)  # production indexes the systems by label: s0 .. s5


def _judge_open_tasks(campaign, sim, stream, first: int) -> tuple[np.ndarray, np.ndarray]:
    """Every open regular task judged once with the simulator's answers (requests
    ``first, first + 1, ...`` of ``stream``); returns the tasks' systems (slot order) and
    scores as the simulator holds them."""
    tasks = list(
        Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR, places_held=0).order_by(
            "number"
        )
    )
    systems = np.array(
        [
            [
                LABELS.index(label)
                for label in task.task_outputs.order_by("slot").values_list(
                    "output__system__label", flat=True
                )
            ]
            for task in tasks
        ],
        dtype=np.int64,
    )
    scores = sim.answer_stream(systems, stream, first=first, outputs=stream_outputs(sim))
    for j, (task, row) in enumerate(zip(tasks, scores, strict=True)):
        # a worker per judgement: a batch may show an item twice
        worker = Worker.objects.create(
            campaign=campaign,
            platform="link",
            external_id=f"sim{first + j}",
            consented_at=timezone.now(),
        )
        judgement_of(task, worker, [float(x) for x in row])
    return systems, scores


def stream_outputs(sim) -> np.ndarray:
    return sim.draw_outputs(np.random.default_rng(2024))


def _simulated_refit(systems: np.ndarray, scores: np.ndarray, criterion) -> stats.RankingResult:
    """``benchmarks/simulate.py``'s refit of these judgements (``run_design``: its counts,
    its ``bt_normal``), with production's normal numbers for the criterion."""
    n = len(LABELS)
    wins, draws = np.zeros((n, n)), np.zeros((n, n))
    simulate.add_counts(wins, draws, systems, scores)
    seed = [int(criterion.campaign.task_seed), int(criterion.pk), 0]
    normals = np.random.default_rng(seed).standard_normal((adaptive.REFIT_RUNS, n))
    return simulate.bt_normal(wins, draws, normals)


def _assert_same(batch: AdaptiveBatch, expected: stats.RankingResult) -> None:
    state = {row["label"]: row for row in batch.state}
    assert [state[label]["cluster"] for label in LABELS] == expected.cluster.tolist()
    assert [state[label]["rank_lo"] for label in LABELS] == expected.rank_lo.tolist()
    assert [state[label]["rank_hi"] for label in LABELS] == expected.rank_hi.tolist()
    # the log rounds to 6 decimals
    np.testing.assert_allclose(
        [state[label]["value"] for label in LABELS], expected.value, rtol=0, atol=1e-6
    )
    np.testing.assert_allclose(
        [state[label]["sigma"] for label in LABELS], expected.spread, rtol=0, atol=1e-6
    )


def test_the_same_judgements_give_production_and_the_simulator_the_same_clusters():
    """A campaign judged with the simulator's answers (a tenth of the judgements flat:
    draws), refitted by production after the pilot and again after an adaptive batch:
    each time the simulator's refit of the same judgements, to the rounding of the log."""
    sim = make(n_systems=6, n_items=40, n_workers=20, flat_share=np.full(20, 0.1)).with_quality(
        np.array([0.6, 0.5, 0.2, 0.0, -0.1, -0.5])
    )
    stream = sim.draw_stream(np.random.default_rng(11), 400)
    campaign = adaptive_campaign(items=40, batch=30)
    criterion = campaign.criteria.get()
    systems, scores = _judge_open_tasks(campaign, sim, stream, first=0)
    tied = [
        scores[:, a] == scores[:, b] for a in range(3) for b in range(a + 1, 3)
    ]  # the judgements carry draws, which both count on both sides
    assert np.any(tied)
    seen_systems, seen_scores = systems, scores
    boundaries = []
    for _ in range(3):
        batch = adaptive.adaptive_batch_now(criterion=criterion, trigger="auto")
        assert batch.judgements == len(seen_systems)
        expected = _simulated_refit(seen_systems, seen_scores, criterion)
        _assert_same(batch, expected)
        boundaries.append(expected.n_clusters > 1)
        systems, scores = _judge_open_tasks(campaign, sim, stream, first=len(seen_systems))
        seen_systems = np.concatenate([seen_systems, systems])
        seen_scores = np.concatenate([seen_scores, scores])
    assert any(boundaries)  # the comparison covered refits that drew boundaries


def test_the_refit_is_the_simulated_method_with_its_draws_and_confidence():
    """The old refit (WMT14, 64 runs, 2 runs trimmed a side: 93.75% ranges) fails here."""
    campaign = adaptive_campaign()
    judge_all(campaign, noise=40)
    batch = adaptive.adaptive_batch_now(criterion=campaign.criteria.get())
    assert (batch.method, batch.runs) == ("bt-normal", 1000)
    simulated = simulate.bt_normal(np.ones((2, 2)) - np.eye(2), np.zeros((2, 2)), np.zeros((4, 2)))
    assert batch.method == simulated.method
    assert adaptive.REFIT_CONFIDENCE == 0.95
    # the simulator and production share one implementation
    assert simulate.bt_normal is stats.bt_normal


def test_a_system_not_judged_yet_is_asked_for_and_the_others_ranked_as_simulated():
    """A system without comparisons is left out of the fit (every rank, the largest
    sigma), the others ranked among themselves."""
    campaign = adaptive_campaign()
    criterion = campaign.criteria.get()
    worker = Worker.objects.create(
        campaign=campaign, platform="link", external_id="w", consented_at=timezone.now()
    )
    rng = np.random.default_rng(3)
    for task in Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR):
        labels = list(
            task.task_outputs.order_by("slot").values_list("output__system__label", flat=True)
        )
        if "s5" in labels:
            continue
        judgement_of(
            task, worker, [max(1.0, 100 + STRENGTHS[x] + rng.normal(0, 40)) for x in labels]
        )
    batch = adaptive.adaptive_batch_now(criterion=criterion)
    state = {row["label"]: row for row in batch.state}
    assert state["s5"]["cluster"] is None and (state["s5"]["rank_lo"], state["s5"]["rank_hi"]) == (
        1,
        6,
    )
    assert batch.decision["quota"]["s5"] == max(batch.decision["quota"].values())
    assert all(state[label]["cluster"] is not None for label in LABELS[:5])
