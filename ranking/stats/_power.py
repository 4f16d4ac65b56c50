"""Power analysis: how many more judgements separate two systems.

Every ranking method here reads judgements as pairwise comparisons (a judgement of k
outputs gives each pair of its systems one comparison: a win, a loss or a draw). Two
systems are told apart when the share of comparisons the better one wins (draws
counting half) differs from one half beyond chance. This module sizes that, with the
usual normal approximation of the one-sample test of a proportion:

    n = ((z_{1 - alpha/2} sigma_0 + z_{power} sigma_1) / (p - 1/2))^2

comparisons of the pair, where ``p`` is the better system's share, ``sigma_1^2`` the
variance of one comparison's outcome (1, 1/2 or 0) at that share and draw rate, and
``sigma_0^2 = (1 - draws) / 4`` its variance when both systems are equal. A balanced
design of tasks of ``k`` outputs among ``n`` systems shows a given pair in a share
``k (k - 1) / (n (n - 1))`` of its judgements, which turns comparisons into judgements.

It is a planning figure, not the ranking's own test: TrueSkill's rank ranges also use
the comparisons with every other system, so the number is an estimate (tests check it
against simulated tests of a proportion, which it sizes exactly up to the normal
approximation). Pure: numpy and the standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from ._pairwise import Comparisons

__all__ = [
    "SIMULATED_RATIOS",
    "PairPower",
    "comparisons_needed",
    "judgements_for",
    "pair_share",
    "pilot_power",
]

#: How far off the planning figure was on one simulated campaign: the balanced size at
#: which the ranking's clusters put the middle pair of ``n`` equally spaced systems apart
#: in 80% of the seeds, over the size :func:`judgements_for` predicts for that pair, as
#: (lowest, highest) over independent blocks of 40 seeds (``benchmarks/simulate.py
#: power``; 3 blocks for 2 and 5 systems, 1 for 20: 0.24, where the grid's old lowest size,
#: 0.25, had been reported), on the simulator fitted to the E2E
#: quality ratings: adjacent shares about 0.55, about 43% draws, 5 outputs a task (2 with
#: 2 systems), 95% confidence and 80% power, a Bradley-Terry refit. Other shares, draws, task sizes and
#: refits may differ: the plan page quotes these as they are and draws no number from them.
SIMULATED_RATIOS: dict[int, tuple[float, float]] = {
    2: (1.26, 1.64),
    5: (0.65, 1.00),
    20: (0.24, 0.24),
}


@dataclass(frozen=True)
class PairPower:
    """What it takes to tell systems ``a`` and ``b`` apart (indices; ``a`` is ahead).

    ``share``: the share of their comparisons ``a`` wins, draws counting half;
    ``draws``: the share of draws; ``have``: their comparisons so far; ``needed``: the
    comparisons the test needs in all (``math.inf`` when the two are level: no number
    of judgements separates systems that are equal); ``more``: still to collect;
    ``judgements_more``: judgements of the design that bring them. These take the
    pilot's share as the truth (power at the observed share): ``judgements_low`` and
    ``judgements_high`` are the same figure at the two ends of the share's confidence
    interval (``math.inf`` when the interval reaches 1/2: the pilot cannot tell the pair
    from level), and ``significant`` says whether the comparisons so far already tell
    the two apart (a two-sided test of the share against 1/2, draws counting half).
    """

    a: int
    b: int
    share: float
    draws: float
    have: int
    needed: float
    more: float
    judgements_more: float
    significant: bool = False
    judgements_low: float = 0.0
    judgements_high: float = math.inf

    @property
    def resolved(self) -> bool:
        return self.more == 0


def _z(probability: float) -> float:
    return NormalDist().inv_cdf(probability)


def _check(confidence: float, power: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError("the confidence level must lie between 0 and 1, e.g. 0.95")
    if not 0 < power < 1:
        raise ValueError("the power must lie between 0 and 1, e.g. 0.8")


def comparisons_needed(
    share: float, *, draws: float = 0.0, confidence: float = 0.95, power: float = 0.8
) -> float:
    """Comparisons of a pair needed to tell it apart (``math.inf`` if ``share`` is 1/2).

    ``share`` is the better system's share of the pair's comparisons (draws counting
    half), ``draws`` the share of draws, both between 0 and 1.
    """
    _check(confidence, power)
    if not 0 <= share <= 1 or not 0 <= draws <= 1:
        raise ValueError("shares lie between 0 and 1")
    if draws > 2 * min(share, 1 - share) + 1e-12:
        raise ValueError("more draws than the share allows (a draw counts half to each)")
    effect = abs(share - 0.5)
    if effect == 0:
        return math.inf
    wins = share - draws / 2  # the better system's outright wins
    variance_1 = max(wins + draws / 4 - share * share, 0.0)
    sigma_0 = math.sqrt(max(1.0 - draws, 0.0)) / 2
    n = ((_z(1 - (1 - confidence) / 2) * sigma_0 + _z(power) * math.sqrt(variance_1)) / effect) ** 2
    return float(math.ceil(n))


def pair_share(n_systems: int, k: int) -> float:
    """The share of a balanced design's judgements (``k`` of ``n_systems`` systems per
    task) that show a given pair of systems."""
    if n_systems < 2 or not 2 <= k <= n_systems:
        raise ValueError("a task shows 2 to n_systems outputs of at least two systems")
    return k * (k - 1) / (n_systems * (n_systems - 1))


def judgements_for(comparisons: float, *, n_systems: int, k: int) -> float:
    """Judgements of a balanced design that bring ``comparisons`` of a given pair."""
    if math.isinf(comparisons):
        return math.inf
    return float(math.ceil(comparisons / pair_share(n_systems, k)))


def pilot_power(
    comparisons: Comparisons,
    order: np.ndarray,
    *,
    k: int,
    confidence: float = 0.95,
    power: float = 0.8,
    pairs: str = "adjacent",
) -> list[PairPower]:
    """From a pilot's comparisons: what each pair still needs, best-supported first.

    ``order`` lists the systems best first (e.g. by the pilot's ranking); ``pairs`` is
    ``adjacent`` (each system and the next: the pairs a cluster boundary separates) or
    ``all``. Each pair's share and draw rate are the pilot's, so ``more`` is what the
    design must add for the pair's observed difference to become significant.
    """
    _check(confidence, power)
    n = comparisons.n_systems
    order = np.asarray(order, dtype=np.int64)
    if sorted(order.tolist()) != list(range(n)):
        raise ValueError("order must list every system once")
    # Wins (draws as halves) and draws per ordered pair, from the comparisons at once.
    wins = np.zeros((n, n))
    draws = np.zeros((n, n))
    w, lo, d = comparisons.winners, comparisons.losers, comparisons.draws
    np.add.at(wins, (w[~d], lo[~d]), 1.0)
    np.add.at(draws, (w[d], lo[d]), 1.0)
    draws = draws + draws.T
    total = wins + wins.T + draws
    if pairs == "adjacent":
        chosen = list(zip(order[:-1].tolist(), order[1:].tolist(), strict=True))
    elif pairs == "all":
        chosen = [(int(order[i]), int(order[j])) for i in range(n) for j in range(i + 1, n)]
    else:
        raise ValueError("pairs is 'adjacent' or 'all'")
    found = []
    for a, b in chosen:
        have = int(total[a, b])
        if have:
            share = (wins[a, b] + draws[a, b] / 2) / have
            draw_share = draws[a, b] / have
        else:  # nothing known yet: level, as far as the pilot can tell
            share, draw_share = 0.5, 0.0
        needed = comparisons_needed(share, draws=draw_share, confidence=confidence, power=power)
        more = max(needed - have, 0.0)
        low, high = _share_interval(share, draw_share, have, confidence)

        # the end nearer 1/2 needs the most; the farther end the fewest
        near, far = (low, high) if share >= 0.5 else (high, low)
        found.append(
            PairPower(
                a=a,
                b=b,
                share=float(share),
                draws=float(draw_share),
                have=have,
                needed=needed,
                more=more,
                judgements_more=judgements_for(more, n_systems=n, k=k) if more else 0.0,
                significant=_significant(share, draw_share, have, confidence),
                judgements_low=_judgements_at(far, share, draw_share, have, n, k, confidence, power)
                if have
                else math.inf,
                judgements_high=_judgements_at(
                    near, share, draw_share, have, n, k, confidence, power
                )
                if have
                else math.inf,
            )
        )
    return found


def _judgements_at(
    end: float,
    share: float,
    draws: float,
    have: int,
    n: int,
    k: int,
    confidence: float,
    power: float,
) -> float:
    """The judgements still needed were the pair's share ``end`` (an end of the interval
    of the pilot's ``share``); ``math.inf`` where ``end`` is 1/2 or across it, or the
    pilot's share is 1/2: possibly level."""
    if share == 0.5 or abs(end - 0.5) < 1e-12 or (end - 0.5) * (share - 0.5) < 0:
        return math.inf
    # the draws as the pilot's, within what the end of the interval allows
    d = min(draws, 2 * min(end, 1 - end))
    at = comparisons_needed(end, draws=d, confidence=confidence, power=power)
    extra = max(at - have, 0.0)
    return judgements_for(extra, n_systems=n, k=k) if extra else 0.0


def _share_interval(
    share: float, draws: float, have: int, confidence: float
) -> tuple[float, float]:
    """The normal-approximation interval of a pair's share from ``have`` comparisons
    (each 1, 1/2 or 0 to the better system), clipped to [0, 1]."""
    if have == 0:
        return 0.0, 1.0
    wins = share - draws / 2
    variance = max(wins + draws / 4 - share * share, 0.0)
    half = _z(1 - (1 - confidence) / 2) * math.sqrt(variance / have)
    return max(share - half, 0.0), min(share + half, 1.0)


def _significant(share: float, draws: float, have: int, confidence: float) -> bool:
    """Whether ``have`` comparisons at ``share`` (``draws`` of them draws) already tell the
    pair apart: the share's two-sided test against 1/2 at ``confidence``, with the null
    hypothesis's standard deviation (as :func:`comparisons_needed` uses)."""
    if have == 0 or share == 0.5:
        return False
    sigma_0 = math.sqrt(max(1.0 - draws, 0.0)) / 2
    if sigma_0 == 0:
        return False  # all draws: nothing to tell apart
    z = abs(share - 0.5) / (sigma_0 / math.sqrt(have))
    return z >= _z(1 - (1 - confidence) / 2)
