"""Power analysis (ranking.stats._power): the sizes it gives hold in simulation."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from ranking.stats._pairwise import Comparisons
from ranking.stats._power import comparisons_needed, judgements_for, pair_share, pilot_power


def test_the_textbook_case() -> None:
    """p = 0.6 against 0.5, 5 % two-sided, 80 % power: ((1.96 * 0.5 + 0.8416 *
    sqrt(0.24)) / 0.1)^2 = 193.8, so 194 comparisons."""
    assert comparisons_needed(0.6) == 194
    assert comparisons_needed(0.4) == 194  # the pair the other way round
    assert comparisons_needed(0.6, power=0.9) > 194 and comparisons_needed(0.7) < 194


def _simulated_power(share: float, draws: float, n: int, rng: np.random.Generator) -> float:
    """The share of 4,000 simulated studies of n comparisons whose test rejects equality."""
    wins = share - draws / 2
    outcomes = rng.choice([1.0, 0.5, 0.0], size=(4000, n), p=[wins, draws, 1 - wins - draws])
    sigma_0 = math.sqrt(1 - draws) / 2
    z = (outcomes.mean(axis=1) - 0.5) / (sigma_0 / math.sqrt(n))
    return float(np.mean(np.abs(z) > NormalDist().inv_cdf(0.975)))


@pytest.mark.parametrize(("share", "draws"), [(0.6, 0.0), (0.6, 0.3), (0.55, 0.1), (0.7, 0.5)])
def test_the_size_gives_the_power_asked_for_in_simulation(share: float, draws: float) -> None:
    n = int(comparisons_needed(share, draws=draws))
    achieved = _simulated_power(share, draws, n, np.random.default_rng(7))
    # The power asked for, up to the normal approximation (and rounding n up: a small
    # n overshoots a little).
    assert 0.77 <= achieved <= 0.85, (n, achieved)
    # A quarter fewer comparisons fall clearly short.
    assert _simulated_power(share, draws, int(n * 0.75), np.random.default_rng(8)) < 0.75


def test_level_systems_cannot_be_separated_and_bad_settings_are_refused() -> None:
    assert comparisons_needed(0.5, draws=0.2) == math.inf
    assert judgements_for(math.inf, n_systems=21, k=5) == math.inf
    with pytest.raises(ValueError, match="confidence"):
        comparisons_needed(0.6, confidence=1.0)
    with pytest.raises(ValueError, match="power"):
        comparisons_needed(0.6, power=0)
    with pytest.raises(ValueError, match="shares"):
        comparisons_needed(1.2)
    with pytest.raises(ValueError):
        pair_share(21, 1)


def test_a_balanced_design_shows_a_pair_in_its_share_of_judgements() -> None:
    """5 outputs of 21 systems: a given pair in 20 / 420 = 1/21 of the judgements."""
    assert pair_share(21, 5) == pytest.approx(1 / 21)
    rng = np.random.default_rng(3)
    shown = np.array([rng.choice(21, size=5, replace=False) for _ in range(42_000)])
    with_pair = np.mean((shown == 0).any(axis=1) & (shown == 1).any(axis=1))
    assert with_pair == pytest.approx(1 / 21, rel=0.06)
    assert judgements_for(194, n_systems=21, k=5) == 194 * 21


def _comparisons(pairs: dict[tuple[int, int], tuple[int, int, int]], n: int) -> Comparisons:
    """(a, b) -> (a's wins, b's wins, draws) as comparisons, one judgement each."""
    winners, losers, draws = [], [], []
    for (a, b), (wins_a, wins_b, level) in pairs.items():
        winners += [a] * wins_a + [b] * wins_b + [a] * level
        losers += [b] * wins_a + [a] * wins_b + [b] * level
        draws += [False] * (wins_a + wins_b) + [True] * level
    m = len(winners)
    return Comparisons(n, np.array(winners), np.array(losers), np.array(draws), np.arange(m), m)


def test_a_pilot_says_which_neighbours_need_more_and_how_many() -> None:
    comparisons = _comparisons({(0, 1): (90, 10, 0), (1, 2): (33, 27, 10), (0, 2): (5, 0, 0)}, 3)
    clear, close = pilot_power(comparisons, np.array([0, 1, 2]), k=3)
    assert (clear.a, clear.b, clear.have) == (0, 1, 100)
    assert clear.resolved and clear.judgements_more == 0
    assert (close.a, close.b, close.have) == (1, 2, 70)
    assert close.share == pytest.approx((33 + 5) / 70) and close.draws == pytest.approx(10 / 70)
    assert close.needed == comparisons_needed(38 / 70, draws=10 / 70)
    assert close.more == close.needed - 70 > 0
    # Three systems, tasks of three: every judgement shows the pair.
    assert close.judgements_more == close.more
    every = pilot_power(comparisons, np.array([0, 1, 2]), k=2, pairs="all")
    assert [(p.a, p.b) for p in every] == [(0, 1), (0, 2), (1, 2)]
    assert every[2].judgements_more == close.more * 3  # pairs of 3 systems: a third each


def test_a_pair_never_compared_is_level_as_far_as_the_pilot_knows() -> None:
    comparisons = _comparisons({(0, 1): (10, 0, 0)}, 3)
    (_, unknown) = pilot_power(comparisons, np.array([0, 1, 2]), k=2)
    assert unknown.have == 0 and unknown.needed == math.inf and not unknown.resolved


def test_the_simulated_ratios_are_ranges_over_blocks_of_seeds() -> None:
    from ranking.stats import SIMULATED_RATIOS

    assert sorted(SIMULATED_RATIOS) == [2, 5, 20]
    for low, high in SIMULATED_RATIOS.values():
        assert 0 < low <= high


def test_a_pilots_figure_carries_its_shares_interval_and_whether_it_is_already_significant() -> (
    None
):
    """A reviewer's pilot: a pair level in truth, 50.4% of 1,000 comparisons, was given a
    six-digit figure with nothing to say that the share's interval reaches 1/2 (so no
    number bounds it); a pair already significant (z 2.5) was "184 more to resolve", with
    nothing to say that the comparisons so far tell it apart."""
    z = NormalDist().inv_cdf(0.975)
    # 504 wins of 1,000: the interval 0.473-0.535 reaches 1/2.
    level = _comparisons({(0, 1): (504, 496, 0)}, 2)
    (pair,) = pilot_power(level, np.array([0, 1]), k=2)
    assert pair.judgements_more > 100_000 and not pair.significant
    assert pair.judgements_high == math.inf
    half = z * math.sqrt(0.504 * 0.496 / 1000)
    far = comparisons_needed(0.504 + half)
    assert pair.judgements_low == max(far - 1000, 0)
    # 580 of 1,000 (z = 0.08 / 0.0158 = 5.1): significant; its interval stays off 1/2.
    clear = _comparisons({(0, 1): (580, 420, 0)}, 2)
    (pair,) = pilot_power(clear, np.array([0, 1]), k=2)
    assert pair.significant and pair.resolved
    # 140 of 250 (z 1.9): not yet significant; its interval (0.50-0.62) reaches 1/2.
    close = _comparisons({(0, 1): (140, 110, 0)}, 2)
    (pair,) = pilot_power(close, np.array([0, 1]), k=2)
    assert not pair.significant and pair.judgements_more > 0
    assert pair.judgements_low < pair.judgements_more < pair.judgements_high == math.inf
    # 160 of 250 (z 4.4): significant, and the interval bounds the figure on both sides.
    strong = _comparisons({(0, 1): (160, 90, 0)}, 2)
    (pair,) = pilot_power(strong, np.array([0, 1]), k=2)
    assert pair.significant
    assert pair.judgements_low <= pair.judgements_more <= pair.judgements_high < math.inf
