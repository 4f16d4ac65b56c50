"""Provisional systems are left out of the comparisons (ranking.stats.prepare_comparisons)."""

from __future__ import annotations

import numpy as np

from ranking import stats


def test_the_others_are_ranked_as_if_the_provisional_system_were_not_there():
    """The ranking without s3 equals the ranking of the data with s3's scores removed."""
    rng = np.random.default_rng(4)
    judgement: list[int] = []
    system: list[int] = []
    score: list[float] = []
    for j in range(60):
        for s in (0, 1, 2):
            judgement.append(j)
            system.append(s)
            score.append(100 + 20 * (1 - s) + rng.normal(0, 15))
    for s, value in ((3, 200.0), (0, 100.0), (1, 90.0)):  # the system seen once
        judgement.append(60)
        system.append(s)
        score.append(value)
    keep = [i for i, s in enumerate(system) if s != 3]
    for method in ("wmt14", "bradley_terry"):
        left_out = stats.compute(
            method=method,
            n_systems=4,
            judgement=judgement,
            system=system,
            score=score,
            runs=40,
            rng=np.random.default_rng(1),
            min_comparisons=30,
        )
        absent = stats.compute(
            method=method,
            n_systems=3,
            judgement=[judgement[i] for i in keep],
            system=[system[i] for i in keep],
            score=[score[i] for i in keep],
            runs=40,
            rng=np.random.default_rng(1),
        )
        assert left_out.ranked.tolist() == [0, 1, 2]
        np.testing.assert_array_equal(left_out.value, absent.value)
        np.testing.assert_array_equal(left_out.rank_lo, absent.rank_lo)
        counts = stats.system_comparisons(
            n_systems=4, judgement=judgement, system=system, score=score
        )
        assert counts.tolist()[3] == 2


def test_when_fewer_than_two_systems_meet_the_minimum_every_system_is_ranked():
    """Thin data everywhere: nothing to rank 'the others' against; all are ranked (the
    pages then say the data are too thin for clusters)."""
    judgement = [0, 0, 0, 1, 1, 1]
    system = [0, 1, 2, 0, 1, 2]
    score = [3.0, 2.0, 1.0, 3.0, 1.0, 2.0]
    computed = stats.compute(
        method="bradley_terry",
        n_systems=3,
        judgement=judgement,
        system=system,
        score=score,
        runs=10,
        rng=np.random.default_rng(0),
        min_comparisons=30,
    )
    assert computed.ranked.tolist() == [0, 1, 2]
