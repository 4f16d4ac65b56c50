"""The stability check (ranking/stats/_stability.py): the adjusted Rand index, a settled
ranking, a boundary at the cut, the summary."""

from __future__ import annotations

import numpy as np
import pytest

from ranking.stats._methods import rank
from ranking.stats._pairwise import judgements_to_comparisons
from ranking.stats._stability import adjusted_rand_index, cluster_stability

from .test_wmt14 import dominance


def test_adjusted_rand_index():
    assert adjusted_rand_index([1, 1, 2, 2], [5, 5, 7, 7]) == 1.0
    assert adjusted_rand_index([1, 1, 2, 2], [1, 2, 1, 2]) == pytest.approx(-0.5)
    assert adjusted_rand_index([1, 1, 1], [1, 1, 1]) == 1.0


def test_stability_of_a_settled_ranking():
    result = rank("expected_wins", dominance(40), rng=np.random.default_rng(0), runs=200)
    check = cluster_stability(result, rng=np.random.default_rng(0))
    assert check.agree and check.adjusted_rand == 1.0 and check.boundary_agreement == 1.0
    assert check.suggested_runs == 200 and check.fragile.size == 0
    assert "same clusters" in check.note


def test_stability_flags_a_boundary_at_the_cut():
    # 200 runs, two systems; system 1 is ranked first in exactly 5 runs (the trim count):
    # the boundary between them rests exactly on the cut
    from ranking.stats._result import summarise_runs

    values = np.tile([1.0, 0.0], (200, 1))
    values[:5] = [0.0, 1.0]
    values[5:10] = [1.0, 1.0]  # ties: both rank 1
    result = summarise_runs(
        method="test",
        run_values=values,
        confidence=0.95,
        comparisons=[1, 1],
        n_comparisons=1,
        params={},
    )
    check = cluster_stability(result, rng=np.random.default_rng(0))
    assert check.fragile.size == 1
    # A range end exactly on the cut: no number of runs is known to settle it, and the
    # check says so instead of suggesting twice the runs.
    assert check.runs_unknown and check.suggested_runs is None
    assert check.runs_interval == (300, None)
    assert "No estimate of the runs needed" in check.note


def test_stability_summary_says_whether_stable():
    from ranking.stats._wmt14 import wmt14

    rng = np.random.default_rng(0)
    judgement = np.repeat(np.arange(60), 3)
    system = np.tile([0, 1, 2], 60)
    score = np.tile([300.0, 100.0, 10.0], 60)
    comparisons = judgements_to_comparisons(judgement, system, score, n_systems=3)
    result = wmt14(comparisons, rng=rng, runs=200)
    summary = cluster_stability(result, rng=np.random.default_rng(1))
    stored = summary.as_dict()
    assert stored["stable"] is summary.stable
    assert summary.stable == (summary.agree and len(summary.fragile) == 0)
    # A dominant, consistent order: three separate clusters that every half agrees on.
    assert summary.stable and list(result.cluster) == [1, 2, 3]
    # With only 40 runs even a share of 0 beyond the 95% cut is within 2 standard errors
    # of it: the same order is then reported as not yet settled, with more runs suggested.
    few = cluster_stability(wmt14(comparisons, rng=rng, runs=40), rng=np.random.default_rng(1))
    assert few.agree and not few.stable
    assert few.suggested_runs is not None and few.suggested_runs > 40


@pytest.mark.parametrize(
    ("runs", "confidence", "min_runs"),
    [(1, 0.95, 40), (2, 0.95, 40), (3, 0.95, 40), (39, 0.95, 40), (20, 0.999, 2000)],
)
def test_too_few_runs_for_the_asked_confidence_never_pass(runs, confidence, min_runs):
    """A reviewer ranked with 1 to 3 runs: seven one-system clusters, the rule "met" and
    the page "Stable. Too few runs ... to judge". 3 runs at 0.95 keep 1 of 3; 20 at 0.999
    keep 18 of 20, what 0.95 keeps. Such a check now fails, says why, and suggests runs."""
    from ranking.stats._stability import min_runs_for, stability_reasons

    assert min_runs_for(confidence) == min_runs
    result = rank(
        "expected_wins",
        dominance(40),
        rng=np.random.default_rng(0),
        runs=runs,
        confidence=confidence,
    )
    check = cluster_stability(result, rng=np.random.default_rng(0))
    assert not check.stable and check.reasons == ("too_few_runs",)
    assert check.suggested_runs is not None and check.suggested_runs >= min_runs
    stored = check.as_dict()
    assert stored["stable"] is False and stored["min_runs"] == min_runs
    (why,) = stability_reasons(stored)
    assert why.startswith(f"{runs:,} runs are too few for rank ranges at {confidence * 100:.4g}%")
    assert f"at least {min_runs:,} runs are needed" in why
    # what the ranges keep, as the coverage says it: 2 runs keep both (none can be
    # dropped), 3 keep 1 (the note said "narrower than asked" of both)
    kept = {1: 1, 2: 2, 3: 1, 39: 37, 20: 18}[runs]
    assert f"it keeps {kept:,} of {runs:,} runs ({kept / runs:.1%}), not the asked share" in why
