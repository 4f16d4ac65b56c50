"""The bootstrap (ranking/stats/_bootstrap.py): replicates padded, each TrueSkill over its comparisons."""

from __future__ import annotations

import itertools

import numpy as np

from ranking.stats._bootstrap import bootstrap
from ranking.stats._pairwise import judgements_to_comparisons
from ranking.stats._trueskill import TrueSkillParams

from .reference import trueskill_env
from .test_wmt14 import dominance


def test_bootstrap_pads_replicates_of_unequal_length():
    # judgements of 2 and of 4 outputs: replicates differ in their number of comparisons
    c = judgements_to_comparisons(
        [0, 0, 1, 1, 1, 1, 2, 2],
        [0, 1, 0, 1, 2, 3, 2, 3],
        [9.0, 1.0, 9.0, 5.0, 3.0, 1.0, 5.0, 1.0],
    )
    result = bootstrap(c, rng=np.random.default_rng(0), runs=30)
    assert np.all(np.isfinite(result.value))
    assert result.value[0] == result.value.max()


def test_bootstrap_replicate_is_trueskill_over_its_comparisons_in_some_order():
    # one judgement: every replicate draws it, and runs TrueSkill over its 3 comparisons
    # in a random order; each replicate must equal one of the 3! orders (the oracle)
    c = dominance(1)
    result = bootstrap(c, rng=np.random.default_rng(0), runs=12)
    env = trueskill_env(TrueSkillParams.wmt14(len(c) + 1))
    outcomes = []
    for order in itertools.permutations(range(len(c))):
        ratings = [env.create_rating() for _ in range(3)]
        for k in order:
            w, lo = c.winners[k], c.losers[k]
            ratings[w], ratings[lo] = env.rate_1vs1(ratings[w], ratings[lo], drawn=bool(c.draws[k]))
        outcomes.append([r.mu for r in ratings])
    for row in result.run_values:
        assert min(np.abs(row - np.array(o)).max() for o in outcomes) < 1e-12
    assert len({tuple(np.round(row, 9)) for row in result.run_values}) > 1
