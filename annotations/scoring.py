"""Scores to ranks, the form every judgement is stored in beside its raw scores."""

from __future__ import annotations

from collections.abc import Sequence


def ranks_from_scores(scores: Sequence[float]) -> list[float]:
    """Rank 1 for the highest score; equal scores share the best rank of their group.

    >>> ranks_from_scores([100, 50, 100, 200])
    [2.0, 4.0, 2.0, 1.0]
    """
    return [float(1 + sum(other > s for other in scores)) for s in scores]
