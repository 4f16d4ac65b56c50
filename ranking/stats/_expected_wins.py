"""Expected wins (WMT12-13), with bootstrap rank ranges.

A system's expected wins is its mean, over the opponents it was compared with, of the
share of their comparisons it won: ``EW(i) = mean_j wins(i, j) / (wins(i, j) + wins(j, i))``.
It estimates the probability of beating an opponent drawn uniformly (Koehn 2012; Bojar
et al. 2013). With ``draws="exclude"`` (WMT's choice) draws are ignored; with
``draws="half"`` each counts half a win for both sides, so the share becomes
``(wins(i, j) + draws(i, j) / 2) / all comparisons of the pair``.

Opponents without any usable comparison are left out of the mean (WMT13's
``infer_EW.py`` counts them as zero but still divides by ``n - 1``); a system with no
usable comparison at all in a bootstrap replicate gets 0.5 there.

References
----------
Koehn, P. (2012). Simulating human judgment in machine translation evaluation campaigns.
IWSLT 2012, 179-184.
Bojar, O. et al. (2013). Findings of the 2013 Workshop on Statistical Machine Translation.
WMT 2013, 1-44.
Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations for
human evaluation of machine translation. WMT 2014, 1-11.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ._pairwise import Comparisons
from ._resample import bootstrap_pair_scores
from ._result import RankingResult

__all__ = ["expected_wins", "expected_wins_scores"]

FloatArray = NDArray[np.float64]
DrawRule = Literal["exclude", "half"]


def expected_wins_scores(
    wins: FloatArray, draws: FloatArray, *, draws_rule: DrawRule = "exclude"
) -> FloatArray:
    """Expected wins from win and draw matrices, shape ``(..., n, n) -> (..., n)``."""
    w = np.asarray(wins, dtype=np.float64)
    d = np.asarray(draws, dtype=np.float64)
    if draws_rule == "exclude":
        won = w
        played = w + np.swapaxes(w, -1, -2)
    elif draws_rule == "half":
        won = w + 0.5 * d
        played = w + np.swapaxes(w, -1, -2) + d
    else:
        raise ValueError("draws_rule must be 'exclude' or 'half'")
    has = played > 0
    share = np.divide(won, played, out=np.zeros_like(won), where=has)
    opponents = has.sum(axis=-1)
    score = share.sum(axis=-1) / np.maximum(opponents, 1)
    return np.where(opponents > 0, score, 0.5)


def expected_wins(
    comparisons: Comparisons,
    *,
    rng: np.random.Generator,
    runs: int = 200,
    confidence: float = 0.95,
    draws_rule: DrawRule = "exclude",
    progress: Callable[[float], None] | None = None,
    resample: str = "auto",
) -> RankingResult:
    """Rank systems by expected wins with bootstrap rank ranges.

    Parameters
    ----------
    comparisons : Comparisons
    rng : numpy.random.Generator
        Replicate ``r`` draws its judgements from the ``r``-th child of
        ``rng.spawn(runs)`` (:func:`~ranking.stats._resample.bootstrap_pair_scores`).
    runs : int, default 200
        Bootstrap replicates (whole judgements resampled).
    confidence : float, default 0.95
    draws_rule : {"exclude", "half"}, default "exclude"
        How draws count (see the module docstring).
    resample : {"auto", "patterns", "judgements"}, default "auto"
        How a replicate is drawn (same distribution, different time: see
        :mod:`~ranking.stats._resample`); the choice made is in the result's ``params``.
    progress : callable, optional
        Called with 0.5 once the replicates are counted and 1.0 at the end.

    Returns
    -------
    RankingResult
        ``value``: expected wins of the full data; ``run_values``: of the replicates.

    References
    ----------
    Koehn, P. (2012). Simulating human judgment in machine translation evaluation
    campaigns. IWSLT 2012.

    Raises
    ------
    ValueError
        Under ``draws_rule="exclude"``, when a system has no comparison but draws: its
        expected wins are undefined (they were 0.5, and all-draw data came out one cluster
        of 0.500 with the minimum-data rule met).
    """
    if draws_rule == "exclude":
        undefined = int(np.sum(comparisons.subset(~comparisons.draws).per_system() == 0))
        if undefined:
            raise ValueError(
                f"{undefined} of {comparisons.n_systems} systems have only draws, and expected "
                "wins leaves draws out (draws_rule 'exclude'): they have no value. Rank with "
                "draws_rule 'half', or with TrueSkill (wmt14), which counts draws."
            )
    return bootstrap_pair_scores(
        comparisons,
        partial(expected_wins_scores, draws_rule=draws_rule),
        method="expected_wins",
        params={"draws_rule": draws_rule},
        rng=rng,
        runs=runs,
        confidence=confidence,
        progress=progress,
        resample=resample,
    )
