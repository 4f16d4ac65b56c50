"""Scores to ranks, the form every judgement is stored in beside its raw scores.

The one rule, used by the annotations side (``JudgementScore.rank``) and by the ranking
engine (:mod:`ranking.stats._pairwise` re-exports :func:`scores_to_ranks`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["SCORE_MAX", "ranks_from_scores", "score_refusal", "scores_to_ranks"]

#: the largest score an import stores: twelve digits, the most a magnitude criterion's
#: field takes; E2E's largest is 111,111. A score of 1e300 overflowed the means.
SCORE_MAX = 10**12 - 1


def score_refusal(raw: str, value: float) -> str:
    """Why an imported score cannot be stored (empty when it can): scores are 0 or more
    (the database's rule) and at most :data:`SCORE_MAX`."""
    if value < 0:
        return (
            f"'{raw}' is a negative score: scores are 0 or more (magnitude estimates are "
            "positive numbers, ratings count from the scale's lowest level up)."
        )
    if value > SCORE_MAX:
        return f"'{raw}' is larger than any score the platform stores (at most {SCORE_MAX:,})."
    return ""


def scores_to_ranks(scores: ArrayLike, *, higher_is_better: bool = True) -> NDArray[np.int64]:
    """Competition ranks of one judgement's scores: 1 is best, ties share the best rank.

    Equal scores get the same rank and the next rank is skipped (the "min" or "1224"
    method): ``[100, 50, 100, 200] -> [2, 4, 2, 1]``. This is the rank an annotator who
    ranks with ties would give and what WMT's ranking interface stored. Only the order
    matters for the pairwise comparisons, so dense or average ranks would give the
    same comparisons.

    Parameters
    ----------
    scores : array_like of float, shape (k,)
        The scores of the k outputs of one judgement.
    higher_is_better : bool, default True
        Whether a higher score is better (RankME magnitudes) or worse (ranks).

    Returns
    -------
    ndarray of int64, shape (k,)
        Ranks in ``1 .. k``.

    References
    ----------
    Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations
    for human evaluation of machine translation. WMT 2014, 1-11.
    """
    values = np.asarray(scores, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError("scores must be one-dimensional")
    if np.isnan(values).any():
        raise ValueError("scores must not be NaN")
    keyed = -values if higher_is_better else values
    # The "min" rank of each value: 1 + how many values are strictly better (lower key).
    # (scipy.stats.rankdata(keyed, method="min") gives the same; importing scipy.stats
    # costs every process a second.)
    return (np.searchsorted(np.sort(keyed), keyed, side="left") + 1).astype(np.int64)


def ranks_from_scores(scores: Sequence[float]) -> list[float]:
    """Rank 1 for the highest score; equal scores share the best rank of their group.

    :func:`scores_to_ranks` (the ranking engine's rule), as floats for
    ``JudgementScore.rank``.

    >>> ranks_from_scores([100, 50, 100, 200])
    [2.0, 4.0, 2.0, 1.0]
    """
    return [float(r) for r in scores_to_ranks(scores)]
