"""TrueSkill over bootstrap resamples of the judgements.

Each replicate draws the judgements with replacement (:mod:`~ranking.stats._resample`),
puts all their comparisons in a random order and runs TrueSkill once over them, one
update per comparison, from the prior. A system's value is its mean mu over the
replicates; its rank range and the clusters come from the per-replicate ranks, as for
:func:`~ranking.stats._wmt14.wmt14`. Unlike WMT14's active sampling, every comparison of a
replicate is used exactly once, so the spread reflects the sampling of judgements and
the order dependence of the online updates.

All replicates advance together (one :class:`~ranking.stats._trueskill.BatchUpdater` call
per step). Replicates with fewer comparisons (when judgements differ in size) are padded
with draws between two phantom players that nobody reads.

References
----------
Herbrich, R., Minka, T. and Graepel, T. (2007). TrueSkill(TM): A Bayesian skill rating
system. NIPS 19, 569-576.
Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations for
human evaluation of machine translation. WMT 2014, 1-11.
Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._pairwise import Comparisons
from ._result import RankingResult, summarise_runs
from ._trueskill import BatchUpdater, TrueSkillParams

__all__ = ["bootstrap"]


def bootstrap(
    comparisons: Comparisons,
    *,
    rng: np.random.Generator,
    runs: int = 200,
    confidence: float = 0.95,
    progress: Callable[[float], None] | None = None,
    block: int = 2048,
    **trueskill: Any,
) -> RankingResult:
    """Rank systems by TrueSkill over bootstrap resamples of whole judgements.

    Parameters
    ----------
    comparisons : Comparisons
        The pairwise comparisons (every system needs at least one).
    rng : numpy.random.Generator
        Replicate ``r`` uses the ``r``-th child of ``rng.spawn(runs)``: first the
        judgement draws (``integers``), then the order (``permutation``).
    runs : int, default 200
        Number of bootstrap replicates.
    confidence : float, default 0.95
        Share of replicates the rank range covers.
    progress : callable, optional
        Called with the fraction done after each block of steps.
    block : int, default 2048
        Steps between progress reports.
    **trueskill
        The TrueSkill environment (``mu0``, ``sigma0``, ``beta``, ``tau``,
        ``draw_probability``), as for WMT14 (:meth:`TrueSkillParams.wmt14`): ``beta``
        defaults to ``sigma0 * (number of comparisons + 1) / 40``.

    Returns
    -------
    RankingResult
        ``value`` is the mean mu over replicates, ``spread`` its standard deviation.

    References
    ----------
    Herbrich, R., Minka, T. and Graepel, T. (2007). TrueSkill(TM): A Bayesian skill rating
    system. NIPS 19, 569-576.
    Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
    """
    if runs < 1:
        raise ValueError("runs must be at least 1")
    n, m, n_judgements = comparisons.n_systems, len(comparisons), comparisons.n_judgements
    missing = np.flatnonzero(comparisons.per_system() == 0)
    if missing.size:
        raise ValueError(f"systems without comparisons cannot be ranked: {missing.tolist()}")
    params = TrueSkillParams.wmt14(m + 1, **trueskill)

    # judgement -> its comparisons (CSR)
    by_judgement = np.argsort(comparisons.judgement, kind="stable")
    sizes = np.bincount(comparisons.judgement, minlength=n_judgements)
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]])

    sequences = []
    for stream in rng.spawn(runs):
        drawn = stream.integers(0, n_judgements, size=n_judgements)
        lengths = sizes[drawn]
        total = int(lengths.sum())
        offsets = np.repeat(first[drawn] - np.cumsum(lengths) + lengths, lengths)
        chosen = by_judgement[offsets + np.arange(total)]
        sequences.append(chosen[stream.permutation(total)])
    n_steps = max(len(s) for s in sequences)
    phantom = m  # a draw between the two phantom players n and n + 1
    order = np.full((n_steps, runs), phantom, dtype=np.int32)
    for r, seq in enumerate(sequences):
        order[: len(seq), r] = seq

    # State: (2, runs, width) variances then means; the phantom players n and n + 1
    # pad short replicates. Per comparison: winner, loser and kind (0 win, 1 draw).
    width = n + 2
    plane = runs * width
    game_table = np.stack(
        [
            np.r_[comparisons.winners, n],
            np.r_[comparisons.losers, n + 1],
            np.r_[comparisons.draws.astype(np.int64), 1],
        ]
    ).astype(np.intp)
    state = np.empty((2, runs, width))
    state[0] = float(params.sigma) ** 2
    state[1] = float(params.mu)
    flat = state.reshape(-1)
    update = BatchUpdater(runs, beta=params.beta, tau=params.tau, margin=params.draw_margin)
    kind_table = BatchUpdater.game_columns([0.0, 1.0], params.draw_margin)
    lanes = np.arange(runs, dtype=np.intp) * width
    game = np.empty((3, runs), dtype=np.intp)
    game_players, game_kind = game[0:2], game[2]
    pos_var, pos_mu = update.pos[0:2], update.pos[2:4]
    add, shift = np.add, np.intp(plane)
    for step, chosen_step in enumerate(order):
        game_table.take(chosen_step, axis=1, out=game, mode="clip")
        add(game_players, lanes, pos_var)
        add(pos_var, shift, pos_mu)
        kind_table.take(game_kind, axis=1, out=update.cols, mode="clip")
        update.play(flat)
        if progress is not None and (step + 1) % block == 0:
            progress((step + 1) / n_steps)
    if progress is not None:
        progress(1.0)
    mu = state[1]

    return summarise_runs(
        method="bootstrap",
        run_values=mu[:, :n],
        confidence=confidence,
        comparisons=comparisons.per_system(),
        n_comparisons=m,
        params=params.as_parameters(),
    )
