"""The yardstick of ``benchmarks/rank_command.py``: the WMT14 procedure as a plain Python
loop with TrueSkill's update in closed form. A yardstick only counts if it does the same
work: its updates are the project's, and a short run follows the trueskill package's loop."""

from __future__ import annotations

import numpy as np

from benchmarks.rank_command import Yardstick, _vw
from ranking.stats._pairwise import judgements_to_comparisons
from ranking.stats._trueskill import vw_draw, vw_win
from ranking.stats._wmt14 import prepare
from tests.ranking.stats.reference import wmt14_reference


def test_the_closed_form_update_is_trueskills() -> None:
    rng = np.random.default_rng(3)
    t, eps = rng.normal(0, 2, 500), rng.uniform(0.01, 1.0, 500)
    for drawn, reference in ((False, vw_win), (True, vw_draw)):
        v, w = reference(t, eps)
        ours = np.array([_vw(a, b, drawn) for a, b in zip(t, eps, strict=True)])
        np.testing.assert_allclose(ours[:, 0], v, atol=1e-4)
        np.testing.assert_allclose(ours[:, 1], w, atol=1e-4)


def test_a_short_run_follows_the_package_loop() -> None:
    rng = np.random.default_rng(7)
    n_judgements, systems = 40, 5
    judgement = np.repeat(np.arange(n_judgements), systems)
    system = np.tile(np.arange(systems), n_judgements)
    score = rng.integers(1, 5, judgement.size).astype(float) + system
    comparisons = judgements_to_comparisons(judgement, system, score, n_systems=systems)
    steps = 30
    n_steps, params, _ = prepare(comparisons, runs=1, steps=steps, trueskill={})
    ours = Yardstick(comparisons).run(params, n_steps, np.random.default_rng(1).spawn(1)[0])
    package = wmt14_reference(comparisons, rng=np.random.default_rng(1), runs=1, steps=steps)
    np.testing.assert_allclose(ours, package.run_values[0], atol=1e-3)
    assert ours != [params.mu] * systems
