"""Bootstrap resampling of whole judgements, and pairwise counts per replicate.

A judgement's comparisons are not independent (they share the worker and the item), so
the bootstrap resamples judgements, not comparisons: each replicate draws
``n_judgements`` judgements with replacement, which gives every judgement a
multiplicity (``0, 1, 2, ...``; multinomial with equal probabilities).

References
----------
Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
Koehn, P. (2004). Statistical significance tests for machine translation evaluation.
EMNLP 2004, 388-395.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from .pairwise import Comparisons

__all__ = ["judgement_multiplicities", "pair_counts"]

FloatArray = NDArray[np.float64]


def judgement_multiplicities(
    n_judgements: int, *, rng: np.random.Generator, runs: int
) -> NDArray[np.int64]:
    """How often each judgement is drawn in each replicate, shape ``(runs, n_judgements)``.

    Replicate ``r`` uses the ``r``-th child of ``rng.spawn(runs)`` and draws
    ``n_judgements`` indices uniformly with replacement (``integers``).
    """
    counts = np.empty((runs, n_judgements), dtype=np.int64)
    for r, stream in enumerate(rng.spawn(runs)):
        drawn = stream.integers(0, n_judgements, size=n_judgements)
        counts[r] = np.bincount(drawn, minlength=n_judgements)
    return counts


def pair_counts(
    comparisons: Comparisons, multiplicities: NDArray[np.int64] | None = None
) -> tuple[FloatArray, FloatArray]:
    """Wins and draws between every ordered pair, for the data or for each replicate.

    Parameters
    ----------
    comparisons : Comparisons
    multiplicities : ndarray of int, shape (runs, n_judgements), optional
        Judgement multiplicities (from :func:`judgement_multiplicities`); without it, the
        counts of the data itself (one replicate with every multiplicity 1).

    Returns
    -------
    wins : ndarray, shape (runs, n_systems, n_systems)
        ``wins[r, i, j]``: comparisons that ``i`` won against ``j``.
    draws : ndarray, shape (runs, n_systems, n_systems)
        ``draws[r, i, j]``: draws between ``i`` and ``j`` (symmetric).
    """
    n = comparisons.n_systems
    if multiplicities is None:
        multiplicities = np.ones((1, comparisons.n_judgements), dtype=np.int64)
    mult = np.asarray(multiplicities, dtype=np.float64)
    runs = mult.shape[0]
    w, lo, dr = comparisons.winners, comparisons.losers, comparisons.draws
    # Judgement x (pair, outcome) incidence: columns 0..n^2-1 wins (i beats j),
    # n^2..2n^2-1 draws (stored at (i, j) and (j, i)).
    rows = np.concatenate(
        [comparisons.judgement[~dr], comparisons.judgement[dr], comparisons.judgement[dr]]
    )
    cols = np.concatenate(
        [
            w[~dr] * n + lo[~dr],
            n * n + w[dr] * n + lo[dr],
            n * n + lo[dr] * n + w[dr],
        ]
    )
    incidence = sparse.csr_matrix(
        (np.ones(rows.shape[0]), (rows, cols)), shape=(comparisons.n_judgements, 2 * n * n)
    )
    counts = np.asarray((incidence.T @ mult.T).T).reshape(runs, 2, n, n)
    return counts[:, 0], counts[:, 1]
