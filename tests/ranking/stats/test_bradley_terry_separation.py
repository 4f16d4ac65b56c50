"""Bradley-Terry separation (ranking/stats/_bradley_terry.py, :func:`separation`): when
the comparisons leave a strength unbounded (a system that won every comparison it was in),
the groups the systems split into, highest first."""

from __future__ import annotations

import numpy as np

from ranking.stats._bradley_terry import bradley_terry_fit, separation
from ranking.stats._pairwise import Comparisons


def _comparisons(n: int, pairs: list[tuple[int, int, bool]]) -> Comparisons:
    """(winner, loser, draw) triples, one judgement each."""
    return Comparisons(
        n_systems=n,
        winners=np.array([w for w, _, _ in pairs], dtype=np.int64),
        losers=np.array([lo for _, lo, _ in pairs], dtype=np.int64),
        draws=np.array([d for _, _, d in pairs], dtype=bool),
        judgement=np.arange(len(pairs), dtype=np.int64),
        n_judgements=len(pairs),
    )


def test_a_cycle_of_wins_bounds_every_strength() -> None:
    result = separation(_comparisons(3, [(0, 1, False), (1, 2, False), (2, 0, False)]))
    assert not result.separated and result.groups == () and result.compared


def test_a_system_that_won_every_comparison_is_a_group_above_the_rest() -> None:
    """The reviewer's case: system 2 won all its comparisons; the fit's value for it runs
    off (set by the ridge), and the separation names it as the top group."""
    pairs = [(2, 0, False), (2, 1, False)] * 5 + [(0, 1, False), (1, 0, False)]
    comparisons = _comparisons(3, pairs)
    result = separation(comparisons)
    assert result.groups == ((2,), (0, 1)) and result.compared
    wins = np.zeros((3, 3))
    np.add.at(wins, (comparisons.winners, comparisons.losers), 1)
    assert bradley_terry_fit(wins)[2] > 5  # the runaway value the groups explain


def test_a_draw_joins_two_systems_both_ways() -> None:
    """A draw is half a win each way: a system that drew once is not separated."""
    result = separation(_comparisons(2, [(0, 1, False), (0, 1, True)]))
    assert not result.separated
    assert separation(_comparisons(2, [(0, 1, False)])).groups == ((0,), (1,))


def test_a_system_that_lost_every_comparison_is_the_bottom_group() -> None:
    pairs = [(0, 1, False), (1, 0, False), (0, 3, False), (1, 3, False), (2, 3, False)]
    pairs += [(2, 0, False), (1, 2, False)]
    assert separation(_comparisons(4, pairs)).groups == ((0, 1, 2), (3,))


def test_a_chain_of_groups_comes_out_top_first() -> None:
    pairs = [(3, 1, False), (1, 0, False), (0, 2, False), (2, 0, False)]
    assert separation(_comparisons(4, pairs)).groups == ((3,), (1,), (0, 2))


def test_groups_never_compared_are_told_apart() -> None:
    """Two pairs that never met: the groups' order says nothing (``compared`` is False)."""
    pairs = [(0, 1, False), (1, 0, False), (2, 3, False), (3, 2, False)]
    result = separation(_comparisons(4, pairs))
    assert result.groups == ((0, 1), (2, 3)) and not result.compared


def test_the_groups_are_scipys_strongly_connected_components_in_a_downward_order() -> None:
    """Against an independent reference (scipy's strongly connected components) on random
    sparse win patterns: the same groups, and every win between groups points down."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(2, 12))
        m = int(rng.integers(1, 3 * n))
        w, lo = rng.integers(0, n, m), rng.integers(0, n, m)
        keep = w != lo
        pairs = [
            (int(a), int(b), bool(d))
            for a, b, d in zip(w[keep], lo[keep], rng.random(m)[keep] < 0.1, strict=True)
        ]
        if not pairs:
            continue
        comparisons = _comparisons(n, pairs)
        result = separation(comparisons)
        beat = np.zeros((n, n), dtype=bool)
        for a, b, d in pairs:
            beat[a, b] = True
            if d:
                beat[b, a] = True
        count, label = connected_components(csr_matrix(beat), directed=True, connection="strong")
        expected = sorted(sorted(np.flatnonzero(label == g).tolist()) for g in range(count))
        if count == 1:
            assert result.groups == ()
            continue
        assert sorted(list(g) for g in result.groups) == expected
        position = {i: k for k, group in enumerate(result.groups) for i in group}
        assert all(position[a] <= position[b] for a, b in zip(*np.nonzero(beat), strict=True))
        parts, _ = connected_components(csr_matrix(beat), directed=False)
        assert result.compared == (parts == 1)
