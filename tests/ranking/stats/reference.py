"""Oracles for the ranking statistics: plain loops over the ``trueskill`` package.

Not production code: the tests (and ``benchmarks/ranking_stats.py``, as the baseline)
compare the vectorised methods of :mod:`ranking.stats` with these straightforward
versions, which follow the published procedures step by step.

- :func:`trueskill_env` -- the ``trueskill`` package's environment for a
  :class:`~ranking.stats._trueskill.TrueSkillParams` (always an explicit one, never
  the package's global environment);
- :func:`rate_1vs1` -- the package's one-on-one update in closed form, vectorised over
  games (the arithmetic the batched kernel reproduces);
- :func:`wmt14_reference` -- the WMT14 procedure as a Python loop over
  ``trueskill.rate_1vs1`` (same random streams as :func:`~ranking.stats._wmt14.wmt14`).

References
----------
Herbrich, R., Minka, T. and Graepel, T. (2007). TrueSkill(TM): A Bayesian skill rating
system. NIPS 19, 569-576.
Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations for
human evaluation of machine translation. WMT 2014, 1-11.
"""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import accumulate
from typing import Any

import numpy as np
import trueskill as _ts
from numpy.typing import ArrayLike, NDArray

from ranking.stats._pairwise import Comparisons
from ranking.stats._result import RankingResult, summarise_runs
from ranking.stats._trueskill import TrueSkillParams, vw_draw, vw_win
from ranking.stats._wmt14 import prepare

__all__ = ["rate_1vs1", "trueskill_env", "wmt14_reference"]

FloatArray = NDArray[np.float64]


def trueskill_env(params: TrueSkillParams) -> _ts.TrueSkill:
    """An explicit ``trueskill.TrueSkill`` environment (never the global one)."""
    return _ts.TrueSkill(
        mu=params.mu,
        sigma=params.sigma,
        beta=params.beta,
        tau=params.tau,
        draw_probability=params.draw_probability,
        backend=None,
    )


def rate_1vs1(
    mu1: ArrayLike,
    sigma1: ArrayLike,
    mu2: ArrayLike,
    sigma2: ArrayLike,
    drawn: ArrayLike,
    params: TrueSkillParams,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Rate many independent one-on-one games at once (player 1 won unless drawn).

    Equivalent, element by element, to
    ``trueskill_env(params).rate_1vs1(Rating(mu1, sigma1), Rating(mu2, sigma2), drawn=drawn)``.

    Parameters
    ----------
    mu1, sigma1, mu2, sigma2 : array_like of float
        Ratings before the games (broadcast together).
    drawn : array_like of bool
        Whether each game was a draw.
    params : TrueSkillParams
        The environment.

    Returns
    -------
    mu1, sigma1, mu2, sigma2 : ndarray of float64
        Ratings after the games.

    References
    ----------
    Herbrich, R., Minka, T. and Graepel, T. (2007). TrueSkill(TM): A Bayesian skill rating
    system. NIPS 19, 569-576.
    """
    m1, s1, m2, s2, dr = np.broadcast_arrays(
        np.asarray(mu1, np.float64),
        np.asarray(sigma1, np.float64),
        np.asarray(mu2, np.float64),
        np.asarray(sigma2, np.float64),
        np.asarray(drawn, np.bool_),
    )
    tau2 = params.tau**2
    var1 = s1**2 + tau2
    var2 = s2**2 + tau2
    c2 = 2 * params.beta**2 + var1 + var2
    c = np.sqrt(c2)
    t = (m1 - m2) / c
    eps = params.draw_margin / c
    v_w, w_w = vw_win(t, eps)
    v_d, w_d = vw_draw(t, eps)
    v = np.where(dr, v_d, v_w)
    w = np.where(dr, w_d, w_w)
    new_m1 = m1 + var1 / c * v
    new_m2 = m2 - var2 / c * v
    new_s1 = np.sqrt(var1 * (1 - var1 / c2 * w))
    new_s2 = np.sqrt(var2 * (1 - var2 / c2 * w))
    return new_m1, new_s1, new_m2, new_s2


def wmt14_reference(
    comparisons: Comparisons,
    *,
    rng: np.random.Generator,
    runs: int = 1,
    confidence: float = 0.95,
    steps: int | None = None,
    **trueskill: Any,
) -> RankingResult:
    """The WMT14 procedure written plainly: a Python loop over ``trueskill.rate_1vs1``.

    Same parameters, random streams and result as :func:`~ranking.stats._wmt14.wmt14`, one run after the
    other; meant as the oracle for tests and the baseline for benchmarks (about 0.2 ms
    per step).

    References
    ----------
    Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations
    for human evaluation of machine translation. WMT 2014, 1-11.
    """
    n_steps, params, used = prepare(comparisons, runs=runs, steps=steps, trueskill=trueskill)
    env = trueskill_env(params)
    n = comparisons.n_systems
    winners = comparisons.winners.tolist()
    losers = comparisons.losers.tolist()
    draws = comparisons.draws.tolist()
    by_pair: defaultdict[tuple[int, int], list[int]] = defaultdict(list)
    for c, (w, lo) in enumerate(zip(winners, losers, strict=True)):
        by_pair[(min(w, lo), max(w, lo))].append(c)

    run_values = np.empty((runs, n))
    for r, stream in enumerate(rng.spawn(runs)):
        ratings = [env.create_rating() for _ in range(n)]
        for _ in range(n_steps):
            u_opponent, u_comparison = stream.random(2)
            a = max(range(n), key=lambda i: ratings[i].sigma)
            candidates = [j for j in range(n) if j != a and (min(a, j), max(a, j)) in by_pair]
            mu_a = ratings[a].mu
            cumulative = list(accumulate(math.exp(-abs(mu_a - ratings[j].mu)) for j in candidates))
            threshold = u_opponent * cumulative[-1]
            b = next(
                (j for j, cw in zip(candidates, cumulative, strict=True) if threshold < cw),
                candidates[-1],
            )
            pool = by_pair[(min(a, b), max(a, b))]
            c = pool[int(u_comparison * len(pool))]
            w, lo = winners[c], losers[c]
            ratings[w], ratings[lo] = env.rate_1vs1(ratings[w], ratings[lo], drawn=draws[c])
        run_values[r] = [rating.mu for rating in ratings]

    return summarise_runs(
        method="wmt14",
        run_values=run_values,
        confidence=confidence,
        comparisons=comparisons.per_system(),
        n_comparisons=len(comparisons),
        params=used,
    )
