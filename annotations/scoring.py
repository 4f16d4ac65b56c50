"""Scores to ranks, the form every judgement is stored in beside its raw scores."""

from __future__ import annotations

from collections.abc import Sequence

from ranking.stats.pairwise import scores_to_ranks


def ranks_from_scores(scores: Sequence[float]) -> list[float]:
    """Rank 1 for the highest score; equal scores share the best rank of their group.

    The ranking engine's own rule (:func:`ranking.stats.pairwise.scores_to_ranks`), as
    floats for ``JudgementScore.rank``.

    >>> ranks_from_scores([100, 50, 100, 200])
    [2.0, 4.0, 2.0, 1.0]
    """
    return [float(r) for r in scores_to_ranks(scores)]
