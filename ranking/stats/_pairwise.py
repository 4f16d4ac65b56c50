"""Judgements (scores of several outputs) to ranks and pairwise comparisons.

A *judgement* is one worker's scoring of the k outputs of one task. It is given to this
module as parallel 1-D arrays with one entry per (judgement, system) score:

``judgement``
    the judgement each entry belongs to (any integers; entries of a judgement need not be
    adjacent),
``system``
    the system index (``0 .. n_systems - 1``),
``score``
    the score (higher is better, e.g. a RankME magnitude estimate), or a rank with
    ``higher_is_better=False``,
``slot`` (optional)
    the displayed output within the judgement. Identical outputs of several systems that
    were merged and shown once appear as several entries with the same slot (and score):
    each of those systems gets the comparisons of that output against the other outputs,
    but they are not compared with each other, since the worker never saw them apart.

Every pair of entries of a judgement becomes one comparison (``k (k - 1) / 2`` of them
for ``k`` outputs), a tie being a draw; pairs of entries of the same system, or of the
same slot, are skipped. This is the expansion of the WMT14 TrueSkill scripts
(Sakaguchi, Post & Van Durme 2014) and of the E2E NLG Challenge (Dušek et al. 2020).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from annotations.core.scoring import scores_to_ranks

__all__ = [
    "Comparisons",
    "PairIndex",
    "judgements_to_comparisons",
    "pair_counts",
    "pair_index",
    "scores_to_ranks",
]

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Comparisons:
    """Pairwise comparisons between systems, the input of every ranking method.

    Attributes
    ----------
    n_systems : int
        Number of systems; system indices lie in ``0 .. n_systems - 1``.
    winners, losers : ndarray of int64, shape (m,)
        The better and the worse system of each comparison. For a draw the two are in
        an arbitrary (but fixed) order.
    draws : ndarray of bool, shape (m,)
        Whether the comparison is a draw (equal scores).
    judgement : ndarray of int64, shape (m,)
        Index (``0 .. n_judgements - 1``) of the judgement the comparison comes from;
        bootstrap methods resample whole judgements.
    n_judgements : int
        Number of judgements (including any that yielded no comparison).
    """

    n_systems: int
    winners: IntArray
    losers: IntArray
    draws: BoolArray
    judgement: IntArray
    n_judgements: int

    def __post_init__(self) -> None:
        winners = np.ascontiguousarray(self.winners, dtype=np.int64)
        losers = np.ascontiguousarray(self.losers, dtype=np.int64)
        draws = np.ascontiguousarray(self.draws, dtype=np.bool_)
        judgement = np.ascontiguousarray(self.judgement, dtype=np.int64)
        m = winners.shape[0]
        if any(a.ndim != 1 or a.shape[0] != m for a in (winners, losers, draws, judgement)):
            raise ValueError("winners, losers, draws and judgement must be 1-D of one length")
        if self.n_systems < 0 or self.n_judgements < 0:
            raise ValueError("n_systems and n_judgements must be non-negative")
        if m:
            low = min(int(winners.min()), int(losers.min()))
            high = max(int(winners.max()), int(losers.max()))
            if low < 0 or high >= self.n_systems:
                raise ValueError("system indices must lie in 0 .. n_systems - 1")
            if np.any(winners == losers):
                raise ValueError("a system cannot be compared with itself")
            if int(judgement.min()) < 0 or int(judgement.max()) >= self.n_judgements:
                raise ValueError("judgement indices must lie in 0 .. n_judgements - 1")
        for name, array in (
            ("winners", winners),
            ("losers", losers),
            ("draws", draws),
            ("judgement", judgement),
        ):
            array.setflags(write=False)
            object.__setattr__(self, name, array)
        object.__setattr__(self, "n_systems", int(self.n_systems))
        object.__setattr__(self, "n_judgements", int(self.n_judgements))

    def __len__(self) -> int:
        return int(self.winners.shape[0])

    @property
    def n_comparisons(self) -> int:
        """Number of comparisons ``m``."""
        return len(self)

    def per_system(self) -> IntArray:
        """Number of comparisons each system took part in, shape (n_systems,)."""
        return np.bincount(self.winners, minlength=self.n_systems) + np.bincount(
            self.losers, minlength=self.n_systems
        )

    def per_system_judgements(self) -> IntArray:
        """Number of judgements each system has a comparison in, shape (n_systems,): a
        five-way judgement gives a system four comparisons but one judge's one look."""
        systems = np.concatenate([self.winners, self.losers])
        judgements = np.concatenate([self.judgement, self.judgement])
        width = np.int64(max(self.n_judgements, int(judgements.max(initial=-1)) + 1, 1))
        pairs = np.unique(systems * width + judgements)
        return np.bincount(pairs // width, minlength=self.n_systems).astype(np.int64)

    def subset(self, mask: ArrayLike) -> Comparisons:
        """The comparisons selected by a boolean mask or an index array (judgements kept)."""
        sel = np.asarray(mask)
        return Comparisons(
            n_systems=self.n_systems,
            winners=self.winners[sel],
            losers=self.losers[sel],
            draws=self.draws[sel],
            judgement=self.judgement[sel],
            n_judgements=self.n_judgements,
        )


def judgements_to_comparisons(
    judgement: ArrayLike,
    system: ArrayLike,
    score: ArrayLike,
    *,
    n_systems: int | None = None,
    slot: ArrayLike | None = None,
    higher_is_better: bool = True,
) -> Comparisons:
    """Expand judgements (k scored outputs each) into their pairwise comparisons.

    Parameters
    ----------
    judgement, system, score : array_like, shape (N,)
        One entry per (judgement, system) score; see the module docstring.
    n_systems : int, optional
        Number of systems; defaults to ``max(system) + 1``.
    slot : array_like of int, shape (N,), optional
        The displayed output of each entry; entries of one judgement with the same slot
        are a merged output and are not compared with each other.
    higher_is_better : bool, default True
        Pass False when ``score`` holds ranks (1 = best).

    Returns
    -------
    Comparisons
        Ordered by judgement (in the order of the sorted judgement ids, which become
        ``0 .. n_judgements - 1``) and, within a judgement, by entry position (first
        entry against the later ones, as ``itertools.combinations``). Equal scores give a
        draw with the earlier entry stored as ``winners``.

    References
    ----------
    Sakaguchi, K., Post, M. and Van Durme, B. (2014). Efficient elicitation of annotations
    for human evaluation of machine translation. WMT 2014, 1-11.
    Dušek, O., Novikova, J. and Rieser, V. (2020). Evaluating the state-of-the-art of
    End-to-End Natural Language Generation: The E2E NLG Challenge. Computer Speech &
    Language 59, 123-156.
    """
    jud = np.asarray(judgement, dtype=np.int64)
    sys_ = np.asarray(system, dtype=np.int64)
    sc = np.asarray(score, dtype=np.float64)
    if jud.ndim != 1 or sys_.shape != jud.shape or sc.shape != jud.shape:
        raise ValueError("judgement, system and score must be 1-D arrays of one length")
    if slot is None:
        sl = np.arange(jud.shape[0], dtype=np.int64)  # every entry its own output
    else:
        sl = np.asarray(slot, dtype=np.int64)
        if sl.shape != jud.shape:
            raise ValueError("slot must have the shape of judgement")
    if np.any(~np.isfinite(sc)):
        raise ValueError("scores must be finite")
    if n_systems is None:
        n_systems = int(sys_.max()) + 1 if sys_.size else 0
    if sys_.size and (int(sys_.min()) < 0 or int(sys_.max()) >= n_systems):
        raise ValueError("system indices must lie in 0 .. n_systems - 1")
    if not higher_is_better:
        sc = -sc

    ids, jidx = np.unique(jud, return_inverse=True)
    order = np.argsort(jidx, kind="stable")
    jsorted = jidx[order]
    starts = np.flatnonzero(np.r_[True, jsorted[1:] != jsorted[:-1]]) if jud.size else np.empty(0)
    bounds = np.r_[starts, jud.size].astype(np.int64)
    sizes = np.diff(bounds)

    first_parts: list[IntArray] = []
    second_parts: list[IntArray] = []
    for k in np.unique(sizes):
        if k < 2:
            continue
        groups = np.flatnonzero(sizes == k)
        members = order[bounds[groups][:, None] + np.arange(k)]  # (G, k) entry indices
        i, j = np.triu_indices(int(k), 1)
        first_parts.append(members[:, i].ravel())
        second_parts.append(members[:, j].ravel())
    if first_parts:
        first = np.concatenate(first_parts)
        second = np.concatenate(second_parts)
    else:
        first = second = np.empty(0, dtype=np.int64)

    keep = (sys_[first] != sys_[second]) & (sl[first] != sl[second])
    first, second = first[keep], second[keep]
    # Judgement order, then entry order within the judgement.
    resort = np.lexsort((second, first, jidx[first]))
    first, second = first[resort], second[resort]

    s1, s2 = sc[first], sc[second]
    swap = s2 > s1
    winners = np.where(swap, sys_[second], sys_[first])
    losers = np.where(swap, sys_[first], sys_[second])
    return Comparisons(
        n_systems=n_systems,
        winners=winners,
        losers=losers,
        draws=s1 == s2,
        judgement=jidx[first],
        n_judgements=int(ids.shape[0]),
    )


def pair_counts(comparisons: Comparisons) -> tuple[FloatArray, FloatArray]:
    """Wins and draws per ordered pair of systems: the counts a Bradley-Terry fit reads.

    Returns
    -------
    wins : ndarray of float64, shape (n_systems, n_systems)
        ``wins[a, b]``: comparisons ``a`` won against ``b``.
    draws : ndarray of float64, shape (n_systems, n_systems)
        Draws between ``a`` and ``b``, counted on both sides (symmetric).
    """
    n = comparisons.n_systems
    won = ~comparisons.draws
    wins = np.bincount(
        comparisons.winners[won] * n + comparisons.losers[won], minlength=n * n
    ).reshape(n, n)
    tied = np.bincount(
        comparisons.winners[comparisons.draws] * n + comparisons.losers[comparisons.draws],
        minlength=n * n,
    ).reshape(n, n)
    return wins.astype(np.float64), (tied + tied.T).astype(np.float64)


@dataclass(frozen=True, eq=False)
class PairIndex:
    """Comparisons grouped by unordered system pair (a CSR layout).

    The comparisons of pair ``{a, b}`` are ``order[start[a, b] : start[a, b] + count[a, b]]``
    (indices into the :class:`Comparisons`), in data order; ``start`` and ``count`` are
    symmetric.
    """

    order: IntArray
    start: IntArray
    count: IntArray


def pair_index(comparisons: Comparisons) -> PairIndex:
    """Group comparisons by unordered pair, keeping data order within a pair."""
    n = comparisons.n_systems
    lo = np.minimum(comparisons.winners, comparisons.losers)
    hi = np.maximum(comparisons.winners, comparisons.losers)
    key = lo * n + hi
    order = np.argsort(key, kind="stable")
    count = np.bincount(key, minlength=n * n).reshape(n, n)
    count = count + count.T
    offsets = np.r_[0, np.cumsum(np.bincount(key, minlength=n * n))[:-1]].reshape(n, n)
    start = np.triu(offsets, 1)
    start = start + start.T
    return PairIndex(order=order.astype(np.int64), start=start.astype(np.int64), count=count)
