"""Bootstrap resampling of whole judgements, and pairwise counts per replicate.

A judgement's comparisons are not independent (they share the worker and the item), so
the bootstrap resamples judgements, not comparisons: each replicate draws
``n_judgements`` judgements with replacement, which gives every judgement a
multiplicity (``0, 1, 2, ...``; multinomial with equal probabilities).

Judgements with the same outcomes (the same wins and draws between the same systems:
in an arena, where a judgement is one comparison, there are at most ``n_systems^2`` such
*patterns*) are interchangeable, so :func:`bootstrap_pair_scores` counts a replicate per
distinct pattern, never per comparison, and scores replicates in chunks of bounded size
(``O(n_systems^2)`` per replicate). It draws a replicate's pattern counts one of two
ways, the same distribution (Efron's bootstrap of the judgements) in different time:

- ``resample="patterns"``: ``multinomial(n_judgements, counts / n_judgements)`` over
  the patterns, in time proportional to the patterns (numpy draws one binomial per
  category, about 50 ns each); best where many judgements share few patterns (an
  arena: a million judgements, a few thousand patterns);
- ``resample="judgements"``: ``n_judgements`` indices drawn uniformly with replacement
  (``integers``), counted per pattern, in time proportional to the judgements (about
  10 ns each); best where nearly every judgement is its own pattern (five-way rankings
  of many systems: 100,000 judgements, about as many patterns);
- ``resample="auto"`` (the default): ``"judgements"`` when ``n_judgements`` is below
  :data:`AUTO_JUDGEMENTS_PER_PATTERN` times the patterns, else ``"patterns"``: a rule
  of the data alone, so a run reproduces; the choice is stored in the result's
  parameters. Runs stored before the choice existed used ``"patterns"``.

The data's patterns and score are computed once per :class:`Comparisons` and method
(:func:`prepared`), not once per chunk of runs: every chunk of a run in one process
shares them.

References
----------
Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
Koehn, P. (2004). Statistical significance tests for machine translation evaluation.
EMNLP 2004, 388-395.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import threadpool_limits

from ._pairwise import Comparisons
from ._result import RankingResult, summarise_runs

if TYPE_CHECKING:
    from scipy import sparse

__all__ = [
    "AUTO_JUDGEMENTS_PER_PATTERN",
    "RESAMPLERS",
    "Patterns",
    "bootstrap_pair_scores",
    "judgement_multiplicities",
    "judgement_patterns",
    "one_blas_thread",
    "pair_counts",
    "prepared",
]

#: the ways to draw a replicate (see the module docstring)
RESAMPLERS: tuple[str, ...] = ("auto", "patterns", "judgements")

#: ``resample="auto"`` draws judgements when there are fewer than this many per pattern:
#: a multinomial category costs about five times a drawn judgement (measured: 100,000
#: categories 5.4 ms, 100,000 judgements drawn and counted 1.0 ms); a margin favours the
#: multinomial, whose time does not grow with the judgements
AUTO_JUDGEMENTS_PER_PATTERN = 4

#: Values per chunk of replicates (count matrices, weights) that bootstrap_pair_scores
#: holds at once: about 32 MB of float64.
CHUNK_VALUES = 4_000_000

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
    from scipy import sparse  # here: scipy costs about 0.3 s at every start-up

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


@dataclass(frozen=True)
class Patterns:
    """The distinct outcome patterns of the judgements, with their counts.

    ``incidence`` (sparse, ``(patterns, 2 n^2)``) gives each pattern's wins (columns
    ``i * n + j``: ``i`` beat ``j``) and draws (``n^2 + i * n + j``, stored both ways);
    ``counts`` how many judgements have it (they sum to ``n_judgements``).
    """

    incidence: sparse.csr_matrix
    counts: NDArray[np.int64]
    n_systems: int
    #: each judgement's pattern (``0 .. patterns - 1``), shape ``(n_judgements,)``
    of_judgement: NDArray[np.int64]

    @property
    def n_judgements(self) -> int:
        return int(self.counts.sum())

    def pair_counts(self, weights: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Wins and draws for pattern weights of shape ``(runs, patterns)``: ``(runs, n, n)``."""
        n = self.n_systems
        runs = weights.shape[0]
        counts = np.asarray((self.incidence.T @ weights.T).T).reshape(runs, 2, n, n)
        return counts[:, 0], counts[:, 1]


def _cells(comparisons: Comparisons) -> NDArray[np.int64]:
    # a comparison's column of the incidence: i * n + j for "i beat j", n^2 + lo * n + hi
    # for a draw (canonical order; expanded to both cells later)
    n = comparisons.n_systems
    w = comparisons.winners.astype(np.int64)
    lo = comparisons.losers.astype(np.int64)
    dr = comparisons.draws
    first, second = np.minimum(w, lo), np.maximum(w, lo)
    return np.where(dr, n * n + first * n + second, w * n + lo)


def judgement_patterns(comparisons: Comparisons) -> Patterns:
    """Group the judgements by their outcomes (see the module docstring)."""
    from scipy import sparse  # here: scipy costs about 0.3 s at every start-up

    n = comparisons.n_systems
    n_judgements = comparisons.n_judgements
    cells = _cells(comparisons)
    judgement = comparisons.judgement.astype(np.int64)
    per_judgement = np.bincount(judgement, minlength=n_judgements)
    if per_judgement.size and per_judgement.max() == 1 and per_judgement.min() == 1:
        # one comparison per judgement (an arena): the pattern is the cell
        unique, inverse, counts = np.unique(cells, return_inverse=True, return_counts=True)
        rows = np.arange(unique.size)
        pattern_cells = unique
        of_judgement = np.empty(n_judgements, dtype=np.int64)
        of_judgement[judgement] = inverse
    else:
        # each judgement's sorted cells, padded with -1: equal rows, equal patterns
        order = np.lexsort((cells, judgement))
        j_sorted, c_sorted = judgement[order], cells[order]
        starts = np.concatenate([[0], np.cumsum(per_judgement)[:-1]])
        slot = np.arange(order.size) - starts[j_sorted]
        table = np.full((n_judgements, max(int(per_judgement.max(initial=0)), 1)), -1)
        table[j_sorted, slot] = c_sorted
        unique_rows, inverse, counts = np.unique(
            table, axis=0, return_inverse=True, return_counts=True
        )
        of_judgement = inverse.reshape(-1).astype(np.int64)
        rows, where = np.nonzero(unique_rows >= 0)
        pattern_cells = unique_rows[rows, where]
    is_draw = pattern_cells >= n * n
    cell = pattern_cells - n * n * is_draw
    first, second = cell // n, cell % n
    # a draw counts at (first, second) and (second, first)
    all_rows = np.concatenate([rows, rows[is_draw]])
    all_cols = np.concatenate([pattern_cells, n * n + second[is_draw] * n + first[is_draw]])
    incidence = sparse.csr_matrix(
        (np.ones(all_rows.shape[0]), (all_rows, all_cols)), shape=(counts.size, 2 * n * n)
    )
    return Patterns(
        incidence=incidence,
        counts=counts.astype(np.int64),
        n_systems=n,
        of_judgement=of_judgement,
    )


@dataclass(frozen=True)
class Prepared:
    """What every chunk of a bootstrap run shares: the data's patterns and score."""

    patterns: Patterns
    #: the score of the data, shape ``(n_systems,)``
    value: FloatArray


#: Comparisons -> {(method, parameters): Prepared}; weak, so it lives as long as the data
_PREPARED: weakref.WeakKeyDictionary[Comparisons, dict[str, Prepared]] = weakref.WeakKeyDictionary()
#: chunks of one run computed in several threads prepare the data once
_PREPARED_LOCK = threading.Lock()

_blas_lock = threading.Lock()
_blas_depth = 0
_blas_limits: threadpool_limits | None = None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS on one thread while any caller in this process is inside (re-entrant and
    shared by threads: the limit is lifted when the last one leaves, never while another
    thread still computes)."""
    global _blas_depth, _blas_limits
    with _blas_lock:
        if _blas_depth == 0:
            _blas_limits = threadpool_limits(limits=1, user_api="blas")
        _blas_depth += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_depth -= 1
            if _blas_depth == 0 and _blas_limits is not None:
                _blas_limits.restore_original_limits()
                _blas_limits = None


def prepared(
    comparisons: Comparisons,
    score: Callable[..., FloatArray],
    *,
    method: str,
    params: dict[str, Any],
) -> Prepared:
    """The data's patterns and score, computed once per data, method and parameters."""
    key = json.dumps([method, params], sort_keys=True, default=str)
    with _PREPARED_LOCK:
        memo = _PREPARED.setdefault(comparisons, {})
        if key not in memo:
            wins, draws = pair_counts(comparisons)
            memo[key] = Prepared(
                patterns=judgement_patterns(comparisons), value=score(wins[0], draws[0])
            )
        return memo[key]


def resolve_resample(resample: str, patterns: Patterns) -> str:
    """The drawing ``resample`` names for these patterns (``"auto"`` decided)."""
    if resample not in RESAMPLERS:
        raise ValueError(f"resample must be one of {', '.join(RESAMPLERS)}")
    if resample != "auto":
        return resample
    few = patterns.n_judgements < AUTO_JUDGEMENTS_PER_PATTERN * patterns.counts.size
    return "judgements" if few else "patterns"


def _draw(stream: np.random.Generator, patterns: Patterns, how: str, out: FloatArray) -> None:
    n_judgements = patterns.n_judgements
    if how == "patterns":
        out[:] = stream.multinomial(n_judgements, patterns.counts / n_judgements)
    else:
        drawn = stream.integers(0, n_judgements, size=n_judgements)
        out[:] = np.bincount(patterns.of_judgement[drawn], minlength=patterns.counts.size)


def bootstrap_pair_scores(
    comparisons: Comparisons,
    score: Callable[..., FloatArray],
    *,
    method: str,
    params: dict[str, Any],
    rng: np.random.Generator,
    runs: int,
    confidence: float,
    progress: Callable[[float], None] | None,
    warm_start: bool = False,
    resample: str = "auto",
) -> RankingResult:
    """A score of the win and draw counts, with rank ranges from bootstrap replicates.

    The skeleton Bradley-Terry and expected wins share: ``score(wins, draws)`` maps
    count matrices of shape ``(..., n, n)`` to values of shape ``(..., n)``. The value
    is the score of the data; the runs are the scores of ``runs`` replicates that
    resample whole judgements, whose ranks give the rank ranges and clusters.

    Replicate ``r`` draws the multiplicities of the judgement patterns
    (:func:`judgement_patterns`) from the ``r``-th child of ``rng.spawn(runs)``, the way
    ``resample`` says (see the module docstring; the choice made is added to the
    result's ``params``); replicates are counted and scored in chunks of at most
    :data:`CHUNK_VALUES` values (``progress`` hears the share of replicates done after
    each chunk, and 1.0 at the end). With ``warm_start`` the replicates are scored as
    ``score(wins, draws, start=value)`` (an iterative fit starting from the data's).
    The data's patterns and score come from :func:`prepared` (once per data).

    BLAS runs on one thread here (``threadpoolctl``): the fits are many small matrices,
    which BLAS threads only slow down, and a product's last digits may depend on how
    many threads summed it: one thread gives the same numbers on every machine setting.
    """
    if runs < 1:
        raise ValueError("runs must be at least 1")
    with one_blas_thread():
        replicates, full, how = _replicates(
            comparisons,
            score,
            method=method,
            params=params,
            rng=rng,
            runs=runs,
            progress=progress,
            warm_start=warm_start,
            resample=resample,
        )
    return summarise_runs(
        method=method,
        run_values=replicates,
        value=full,
        confidence=confidence,
        comparisons=comparisons.per_system(),
        n_comparisons=len(comparisons),
        params={**params, "resample": how},
    )


def _replicates(
    comparisons: Comparisons,
    score: Callable[..., FloatArray],
    *,
    method: str,
    params: dict[str, Any],
    rng: np.random.Generator,
    runs: int,
    progress: Callable[[float], None] | None,
    warm_start: bool,
    resample: str,
) -> tuple[FloatArray, FloatArray, str]:
    """The replicates' scores, the data's, and the drawing used."""
    shared = prepared(comparisons, score, method=method, params=params)
    full, patterns = shared.value, shared.patterns
    how = resolve_resample(resample, patterns)
    n = comparisons.n_systems
    chunk = max(1, min(runs, CHUNK_VALUES // max(patterns.counts.size, 2 * n * n, 1)))
    streams = rng.spawn(runs)
    replicates = np.empty((runs, n))
    for start in range(0, runs, chunk):
        part = streams[start : start + chunk]
        weights = np.empty((len(part), patterns.counts.size))
        for k, stream in enumerate(part):
            _draw(stream, patterns, how, weights[k])
        rep_wins, rep_draws = patterns.pair_counts(weights)
        replicates[start : start + len(part)] = (
            score(rep_wins, rep_draws, start=full) if warm_start else score(rep_wins, rep_draws)
        )
        if progress is not None:
            progress(min(start + len(part), runs) / runs)
    return replicates, full, how
