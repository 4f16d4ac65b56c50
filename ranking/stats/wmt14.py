"""TrueSkill ranking the WMT14 way: active sampling of comparisons, many runs.

The procedure of Sakaguchi, Post & Van Durme (2014), as used for Table 11 of the E2E NLG
Challenge report (Dušek et al. 2020). In each of ``runs`` independent runs, starting
from ``mu = mu0``, ``sigma = sigma0`` for every system, each of ``steps`` steps

1. takes the system ``a`` with the largest sigma (the first one on ties),
2. picks an opponent ``b != a`` with probability proportional to
   ``exp(-|mu_a - mu_b|)``: the first one (in system order) whose cumulative weight
   exceeds ``u`` times the total, ``u`` uniform (``scripts/random_sample.py`` divides
   the cumulative weights by the total instead, which is the same up to rounding),
3. draws one comparison of the pair ``{a, b}`` uniformly, with replacement, and
4. applies the TrueSkill one-on-one update (a tie being a draw).

The defaults are the scripts': ``mu0 = 0``, ``sigma0 = 0.5``, ``tau = 0``, a draw
probability of 0.25, ``steps = number of comparisons + 1`` and
``beta = sigma0 * steps / 40``. A system's value is its mean mu over the runs; its rank
in a run is its position by mu; the rank range and the clusters follow
:mod:`ranking.stats.clusters`.

Pairs without any comparison: the scripts pick the opponent among *all* other systems
and would crash (``random.choice`` of an empty list) on such a pair. Here opponents
without a comparison with ``a`` get weight zero, i.e. the choice is renormalised over the
pairs that have data; with complete data (every pair compared, as in E2E) this is the
scripts' procedure exactly. Systems without any comparison are rejected.

Randomness: ``rng.spawn(runs)`` gives each run its own stream; a run consumes two uniform
numbers per step (opponent, then comparison). :func:`wmt14_reference` consumes them in
the same order, so both functions give the same runs for the same generator.

References
----------
Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations for
human evaluation of machine translation. WMT 2014, 1-11.
Bojar, O. et al. (2014). Findings of the 2014 Workshop on Statistical Machine Translation.
WMT 2014, 12-58.
Herbrich, R., Minka, T. and Graepel, T. (2007). TrueSkill(TM): A Bayesian skill rating
system. NIPS 19, 569-576.
Dušek, O., Novikova, J. and Rieser, V. (2020). Evaluating the state-of-the-art of
End-to-End Natural Language Generation: The E2E NLG Challenge. Computer Speech & Language
59, 123-156.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from itertools import accumulate
from typing import Any

import numpy as np

from .pairwise import Comparisons, pair_index
from .result import RankingResult, summarise_runs
from .trueskill import BatchUpdater, TrueSkillParams

__all__ = ["wmt14", "wmt14_reference"]

Progress = Callable[[float], None]


def _prepare(
    comparisons: Comparisons,
    *,
    runs: int,
    mu0: float,
    sigma0: float,
    beta: float | None,
    tau: float,
    draw_probability: float,
    steps: int | None,
) -> tuple[int, TrueSkillParams, dict[str, Any]]:
    if runs < 1:
        raise ValueError("runs must be at least 1")
    per_system = comparisons.per_system()
    missing = np.flatnonzero(per_system == 0)
    if missing.size:
        raise ValueError(f"systems without comparisons cannot be ranked: {missing.tolist()}")
    n_steps = len(comparisons) + 1 if steps is None else int(steps)
    if n_steps < 0:
        raise ValueError("steps must be non-negative")
    params = TrueSkillParams.wmt14(
        n_steps, mu=mu0, sigma=sigma0, beta=beta, tau=tau, draw_probability=draw_probability
    )
    used = {
        "mu0": params.mu,
        "sigma0": params.sigma,
        "beta": params.beta,
        "tau": params.tau,
        "draw_probability": params.draw_probability,
        "steps": n_steps,
    }
    return n_steps, params, used


def wmt14(
    comparisons: Comparisons,
    *,
    rng: np.random.Generator,
    runs: int = 200,
    confidence: float = 0.95,
    mu0: float = 0.0,
    sigma0: float = 0.5,
    beta: float | None = None,
    tau: float = 0.0,
    draw_probability: float = 0.25,
    steps: int | None = None,
    progress: Progress | None = None,
    block: int = 2048,
) -> RankingResult:
    """Rank systems by TrueSkill with WMT14 active sampling, all runs advanced together.

    Parameters
    ----------
    comparisons : Comparisons
        The pairwise comparisons (every system needs at least one).
    rng : numpy.random.Generator
        Source of randomness; each run gets a child stream (``rng.spawn``).
    runs : int, default 200
        Number of independent runs.
    confidence : float, default 0.95
        Share of runs the rank range covers.
    mu0, sigma0 : float, default 0.0 and 0.5
        Prior mean and standard deviation.
    beta : float, optional
        Performance noise; default ``sigma0 * steps / 40`` as in the WMT14 scripts.
    tau : float, default 0.0
        Dynamics factor.
    draw_probability : float, default 0.25
        TrueSkill draw probability (sets the draw margin).
    steps : int, optional
        Updates per run; default the number of comparisons + 1.
    progress : callable, optional
        Called with the fraction done (0-1) after each block of steps.
    block : int, default 2048
        Steps per block of pre-drawn random numbers (memory ``block * runs * 16`` bytes).

    Returns
    -------
    RankingResult
        ``value`` is the mean mu over runs, ``spread`` its standard deviation over runs.

    Notes
    -----
    The state of all runs is two arrays: the variances, ``(runs, n_systems)``, and the
    means, ``(n_systems, runs)``. A step costs a fixed number of numpy calls (about 100)
    on arrays of length ``runs`` or ``runs * n_systems``: argmax of the variances, the
    opponent weights and their cumulative sums (one matrix product with a triangular
    matrix), the comparison looked up in a per-pair index, and one
    :class:`~ranking.stats.trueskill.BatchUpdater` call. Random numbers are drawn per run
    in blocks. Memory is ``O(runs * (n_systems + block))`` besides the comparisons. The
    result equals :func:`wmt14_reference` up to floating-point rounding (about 1e-15).

    References
    ----------
    Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations
    for human evaluation of machine translation. WMT 2014, 1-11.
    Dušek, O., Novikova, J. and Rieser, V. (2020). Evaluating the state-of-the-art of
    End-to-End Natural Language Generation: The E2E NLG Challenge. Computer Speech &
    Language 59, 123-156.
    """
    n_steps, params, used = _prepare(
        comparisons,
        runs=runs,
        mu0=mu0,
        sigma0=sigma0,
        beta=beta,
        tau=tau,
        draw_probability=draw_probability,
        steps=steps,
    )
    n = comparisons.n_systems
    index = pair_index(comparisons)
    winners = comparisons.winners[index.order]
    losers = comparisons.losers[index.order]
    draws = comparisons.draws[index.order].astype(np.float64)
    # per pair (a * n + b): number of comparisons and first position in the pair order
    pair_table = np.stack([index.count.ravel(), index.start.ravel()]).astype(np.float64)
    # per comparison: both players' rows in the (systems, runs) layout of mu (times
    # runs) and in the (runs, systems) layout of the variances; draw flag and sign
    players_table = np.stack([winners * runs, losers * runs, winners, losers]).astype(np.intp)
    kind_table = np.stack([draws, 2.0 * draws - 1.0])
    available = index.count > 0
    complete = bool(available.sum() == n * (n - 1))
    weight_mask = available.astype(np.float64)

    streams = rng.spawn(runs)
    # Variances are (runs, systems) for a row-wise argmax; means are (systems, runs) so
    # that the opponent weights of all runs are computed along contiguous rows.
    var = np.full((runs, n), float(params.sigma) ** 2)
    mu_t = np.full((n, runs), float(params.mu))
    var_flat = var.reshape(-1)
    mu_flat = mu_t.reshape(-1)
    lanes = np.arange(runs, dtype=np.intp)
    lane_offsets = np.stack([lanes, lanes, lanes * n, lanes * n])
    lower = np.tril(np.ones((n, n)))
    weights = np.empty((n, runs))
    weights_flat = weights.reshape(-1)
    cumulative = np.empty((n, runs))
    total = cumulative[-1]
    below = np.empty((n, runs), dtype=np.bool_)
    threshold = np.empty(runs)
    flat_a = np.empty(runs, dtype=np.intp)
    key = np.empty(runs, dtype=np.intp)
    pick = np.empty(runs)
    n_intp = np.intp(n)
    runs_intp = np.intp(runs)
    update = BatchUpdater(runs, beta=params.beta, tau=params.tau, margin=params.draw_margin)
    uniforms = np.empty((min(block, max(n_steps, 1)), 2, runs))
    add, sub, mul = np.add, np.subtract, np.multiply
    count_below = np.add.reduce
    intp = np.intp

    done = 0
    while done < n_steps:
        nb = min(uniforms.shape[0], n_steps - done)
        for r, stream in enumerate(streams):
            uniforms[:nb, :, r] = stream.random((nb, 2))
        for u_opponent, u_comparison in uniforms[:nb]:
            a = var.argmax(axis=1)
            mul(a, runs_intp, flat_a)
            add(flat_a, lanes, flat_a)
            # opponent weights exp(-|mu_a - mu_j|), zero for a itself (and missing pairs)
            sub(mu_t, mu_flat.take(flat_a), weights)
            np.absolute(weights, weights)
            np.negative(weights, weights)
            np.exp(weights, weights)
            if complete:
                weights_flat[flat_a] = 0.0
            else:
                mul(weights, weight_mask[a].T, weights)
            # the first opponent whose cumulative weight exceeds u * total
            np.matmul(lower, weights, cumulative)
            mul(u_opponent, total, threshold)
            np.less_equal(cumulative, threshold, below)
            mul(a, n_intp, key)
            add(key, count_below(below, axis=0, dtype=intp), key)
            # one comparison of the pair, uniformly: start + floor(u * count)
            count_start = pair_table.take(key, axis=1)
            mul(u_comparison, count_start[0], pick)
            add(pick, count_start[1], pick)
            chosen = pick.astype(intp)
            players = players_table.take(chosen, axis=1)
            add(players, lane_offsets, players)
            update(mu_flat, var_flat, players[:2], kind_table.take(chosen, axis=1), players[2:])
        done += nb
        if progress is not None:
            progress(done / n_steps)

    return summarise_runs(
        method="wmt14",
        run_values=mu_t.T,
        confidence=confidence,
        comparisons=comparisons.per_system(),
        n_comparisons=len(comparisons),
        params=used,
    )


def wmt14_reference(
    comparisons: Comparisons,
    *,
    rng: np.random.Generator,
    runs: int = 1,
    confidence: float = 0.95,
    mu0: float = 0.0,
    sigma0: float = 0.5,
    beta: float | None = None,
    tau: float = 0.0,
    draw_probability: float = 0.25,
    steps: int | None = None,
) -> RankingResult:
    """The WMT14 procedure written plainly: a Python loop over ``trueskill.rate_1vs1``.

    Same parameters, random streams and result as :func:`wmt14`, one run after the
    other; meant as the oracle for tests and the baseline for benchmarks (about 0.2 ms
    per step).

    References
    ----------
    Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations
    for human evaluation of machine translation. WMT 2014, 1-11.
    """
    n_steps, params, used = _prepare(
        comparisons,
        runs=runs,
        mu0=mu0,
        sigma0=sigma0,
        beta=beta,
        tau=tau,
        draw_probability=draw_probability,
        steps=steps,
    )
    env = params.env()
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
