"""``ranking.stats.compute``: batches bound memory, unjudged systems are left unranked."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from ranking import stats
from ranking.stats._methods import rank
from ranking.stats._pairwise import judgements_to_comparisons


def _scores(n_systems: int = 4, n_judgements: int = 30, seed: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    strengths = np.linspace(60, -60, n_systems)
    judgement, system, score = [], [], []
    for j in range(n_judgements):
        for s in rng.permutation(n_systems)[:3]:
            judgement.append(j)
            system.append(int(s))
            score.append(100 + strengths[s] + rng.normal(0, 15))
    return {
        "n_systems": n_systems,
        "judgement": np.array(judgement),
        "system": np.array(system),
        "score": np.array(score),
    }


@pytest.mark.parametrize("method", ["wmt14", "bootstrap", "bradley_terry", "expected_wins"])
def test_one_batch_gives_exactly_the_methods_result(method):
    data = _scores()
    computed = stats.compute(method=method, runs=50, rng=np.random.default_rng(4), **data)
    comparisons = judgements_to_comparisons(
        data["judgement"], data["system"], data["score"], n_systems=4
    )
    direct = rank(method, comparisons, rng=np.random.default_rng(4), runs=50)
    assert_array_equal(computed.value, direct.value)
    assert_array_equal(computed.result.run_values, direct.run_values)
    assert_array_equal(computed.ranked, [0, 1, 2, 3])


@pytest.mark.parametrize("method", ["wmt14", "bootstrap", "bradley_terry"])
def test_batches_are_reproducible_and_report_progress_per_batch(method):
    data = _scores()
    seen: list[float] = []
    first = stats.compute(
        method=method,
        runs=250,
        batch_runs=100,
        rng=np.random.default_rng(9),
        progress=seen.append,
        **data,
    )
    again = stats.compute(
        method=method, runs=250, batch_runs=100, rng=np.random.default_rng(9), **data
    )
    assert first.result.run_values.shape == (250, 4) and first.result.n_runs == 250
    assert_array_equal(first.result.run_values, again.result.run_values)
    assert_array_equal(first.rank_lo, again.rank_lo)
    assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0)
    for boundary in (100 / 250, 200 / 250):
        assert any(abs(f - boundary) < 1e-12 for f in seen), (boundary, seen)
    # The best planted system comes first whatever the batching.
    assert int(np.argmax(first.value)) == 0
    if method == "bradley_terry":  # its value is the fit on all data, the same in any batch
        single = stats.compute(method=method, runs=250, rng=np.random.default_rng(9), **data)
        assert_array_equal(first.value, single.value)


def test_a_system_without_comparisons_is_left_unranked_not_fatal():
    data = _scores(n_systems=4)
    # System 4 appears once, alone in its judgement (no other output to compare with),
    # system 5 never: neither has a comparison.
    data["n_systems"] = 6
    data["judgement"] = np.r_[data["judgement"], 30]
    data["system"] = np.r_[data["system"], 4]
    data["score"] = np.r_[data["score"], 100.0]
    computed = stats.compute(method="wmt14", runs=30, rng=np.random.default_rng(1), **data)
    assert_array_equal(computed.ranked, [0, 1, 2, 3])
    assert computed.value.shape == (4,) and computed.comparisons.min() > 0


def test_fewer_than_two_comparable_systems_is_a_clear_error():
    data: dict[str, Any] = {
        "n_systems": 2,
        "judgement": np.array([0, 1]),
        "system": np.array([0, 1]),
        "score": np.array([1.0, 2.0]),
    }
    with pytest.raises(ValueError, match="at least two systems need comparisons"):
        stats.compute(method="wmt14", runs=5, rng=np.random.default_rng(0), **data)


def test_a_system_left_with_too_few_comparisons_once_the_thin_ones_go_is_left_out_too() -> None:
    """The walk-through: with the thin systems left out, a system kept for its total
    was ranked first on 9 comparisons with the others. The rule is applied again on
    what is left, until every ranked system has the minimum among the ranked ones."""
    from ranking.stats import prepare_comparisons

    pairs = [(0, 1)] + [(0, 3)] * 3 + [(1, 2)] * 5
    judgement = np.repeat(np.arange(len(pairs)), 2)
    system = np.asarray(pairs).reshape(-1)
    score = np.tile([100.0, 50.0], len(pairs))
    comparisons, ranked = prepare_comparisons(
        n_systems=4, judgement=judgement, system=system, score=score, min_comparisons=4
    )
    assert ranked.tolist() == [1, 2]
    assert comparisons.per_system().min() >= 4


def test_system_evidence_counts_comparisons_and_the_judgements_they_come_from() -> None:
    """Two five-way judgements give system 0 eight comparisons but two judgements; a
    system judged once against one other has one of each."""
    from ranking.stats import prepare_comparisons, system_evidence

    judgement = [0] * 5 + [1] * 5 + [2, 2]
    system = [0, 1, 2, 3, 4] * 2 + [5, 1]
    score = [9, 5, 4, 3, 2] * 2 + [7, 1]
    evidence = system_evidence(n_systems=6, judgement=judgement, system=system, score=score)
    assert evidence.comparisons.tolist() == [8, 9, 8, 8, 8, 1]
    assert evidence.judgements.tolist() == [2, 3, 2, 2, 2, 1]
    assert evidence.separation is None  # no ranked systems given
    # With a minimum of 3, only system 1 is in 3 judgements: too few meet it, so the rule
    # is not applied and every compared system is ranked (the caller says it is thin).
    _, ranked = prepare_comparisons(
        n_systems=6, judgement=judgement, system=system, score=score, min_comparisons=3
    )
    assert ranked.tolist() == [0, 1, 2, 3, 4, 5]
    # With a minimum of 2, system 5 (one judgement) is left out.
    _, ranked = prepare_comparisons(
        n_systems=6, judgement=judgement, system=system, score=score, min_comparisons=2
    )
    assert ranked.tolist() == [0, 1, 2, 3, 4]
