"""Bradley-Terry strengths with bootstrap confidence ranges (the Chatbot Arena way).

``P(i beats j) = 1 / (1 + exp(-(theta_i - theta_j)))``. The strengths maximise the
likelihood of the comparisons, with a tiny
ridge ``ridge / 2 * sum(theta^2)`` that fixes the free additive constant and keeps the
estimate finite when a system never wins or never loses (the maximum-likelihood
estimate would be infinite). The fit is Newton's method on this strictly concave
objective, batched over bootstrap replicates, with steps capped for robustness.

Values are the strengths of the full data on the natural-log odds scale, centred to
mean zero (Chatbot Arena reports ``1000 + 400 / ln(10) * theta``, the Elo scale); the
spread is their standard deviation over replicates that resample whole judgements; the
rank range comes from the replicates' ranks and the clusters from the ranges, as for
WMT14.

Ties (draws) are split: a draw between ``i`` and ``j`` adds half a win to each side
(``wins + 0.5 * draws``) before the fit. This is the convention Chatbot Arena's
Bradley-Terry notebook uses (a win weighs 2, a tie 1 each way), not a model of ties:
no tie parameter is estimated, as the Rao-Kupper (1967) or Davidson (1970) extensions
would do, so many draws pull two strengths together rather than being explained by a
tie propensity. Expected wins (``draws_rule``) offers to leave draws out instead.

References
----------
Bradley, R. A. and Terry, M. E. (1952). Rank analysis of incomplete block designs: I. The
method of paired comparisons. Biometrika 39, 324-345.
Rao, P. V. and Kupper, L. L. (1967). Ties in paired-comparison experiments: a
generalization of the Bradley-Terry model. JASA 62, 194-204 (a tie model, *not*
implemented here; cited for contrast).
Davidson, R. R. (1970). On extending the Bradley-Terry model to accommodate ties in
paired comparison experiments. JASA 65, 317-328 (likewise not implemented).
Hunter, D. R. (2004). MM algorithms for generalized Bradley-Terry models. Annals of
Statistics 32, 384-406.
Chiang, W.-L. et al. (2024). Chatbot Arena: An open platform for evaluating LLMs by human
preference. ICML 2024.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
from numpy.typing import NDArray

from ._pairwise import Comparisons, pair_counts
from ._resample import bootstrap_pair_scores
from ._result import RankingResult, summarise_runs

__all__ = [
    "BT_NORMAL_METHOD",
    "Separation",
    "bradley_terry",
    "bradley_terry_fit",
    "bt_normal",
    "separation",
    "separation_of",
]

FloatArray = NDArray[np.float64]

#: the method name :func:`bt_normal`'s results carry (and the adaptive design logs)
BT_NORMAL_METHOD = "bt-normal"


def bradley_terry_fit(
    wins: FloatArray,
    draws: FloatArray | None = None,
    *,
    ridge: float = 1e-6,
    max_iter: int = 100,
    tol: float = 1e-10,
    start: FloatArray | None = None,
) -> FloatArray:
    """Bradley-Terry strengths for one or many win matrices (ridge-penalised MLE).

    Parameters
    ----------
    wins : array_like, shape (n, n) or (runs, n, n)
        ``wins[..., i, j]``: how often ``i`` beat ``j``.
    draws : array_like, same shape, optional
        Draws between ``i`` and ``j`` (symmetric); each counts half a win for both
        (ties split, no tie parameter: see the module docstring).
    ridge : float, default 1e-6
        Weight of the penalty ``ridge / 2 * sum(theta^2)`` (a Gaussian prior).
    max_iter : int, default 100
        Newton iterations at most.
    tol : float, default 1e-10
        Stop when no strength moves by more than this (in every matrix; given
        ``start``, each matrix stops on its own and the others go on without it).
    start : array_like, shape (n,) or (runs, n), optional
        Initial strengths (default zeros): the bootstrap starts its replicates from the
        fit of the data, which they are close to, and takes them by the chord method
        (one Hessian for all, :func:`_chord`) before Newton's. A fit given ``start`` judges
        convergence on the *centred* step: the step's component along ``(1, ..., 1)``,
        which the final centring removes, is held only by the tiny ridge and carries
        rounding noise (about 1e-7 with a million comparisons) that would otherwise
        keep it iterating to ``max_iter``.

    Returns
    -------
    ndarray, shape (n,) or (runs, n)
        Strengths centred to mean zero.

    References
    ----------
    Bradley, R. A. and Terry, M. E. (1952). Biometrika 39, 324-345.
    Hunter, D. R. (2004). Annals of Statistics 32, 384-406.
    """
    w = np.asarray(wins, dtype=np.float64)
    single = w.ndim == 2
    if single:
        w = w[None]
    if draws is not None:
        d = np.asarray(draws, dtype=np.float64)
        w = w + 0.5 * (d[None] if single else d)
    if ridge <= 0:
        raise ValueError("ridge must be positive")
    runs, n, _ = w.shape
    total = w + np.swapaxes(w, 1, 2)
    won = w.sum(axis=2)
    theta = np.zeros((runs, n))
    active = np.arange(runs)
    if start is not None:
        theta += np.asarray(start, dtype=np.float64)
        active = _chord(theta, total, won, ridge=ridge, tol=tol)
    _newton(
        theta,
        active,
        total,
        won,
        ridge=ridge,
        tol=tol,
        max_iter=max_iter,
        centred=start is not None,
    )
    theta -= theta.mean(axis=1, keepdims=True)
    return theta[0] if single else theta


@dataclass(frozen=True)
class Separation:
    """Whether the comparisons bound every Bradley-Terry strength, and if not, how the
    systems split.

    ``groups`` (empty when every strength is bounded): the systems, as indices, in
    groups such that no system of a later group beat or drew with a system of an
    earlier one, highest first. ``compared``: whether every group was compared with
    another (directly or through others); when False some groups never met, and their
    order says nothing.
    """

    groups: tuple[tuple[int, ...], ...]
    compared: bool

    @property
    def separated(self) -> bool:
        return bool(self.groups)


def separation(comparisons: Comparisons) -> Separation:
    """Whether the maximum-likelihood Bradley-Terry strengths of ``comparisons`` exist.

    They exist (are finite) exactly when, for every split of the systems into two
    groups, some system of each group beat or drew with some system of the other: the
    graph with an edge ``i -> j`` whenever ``i`` beat or drew with ``j`` is strongly
    connected (Zermelo 1929; Ford 1957; Hunter 2004, Assumption 1). When it is not, the
    likelihood keeps growing as the groups are pushed apart, and the fitted values and
    their bootstrap spreads are set by the fit's ridge, not by the data: a system that
    won every comparison it was in is the common case. The groups are the graph's
    strongly connected components, ordered so that every edge between groups points
    down (the smallest system index first among groups the edges leave unordered).

    References
    ----------
    Zermelo, E. (1929). Die Berechnung der Turnier-Ergebnisse als ein Maximumproblem der
    Wahrscheinlichkeitsrechnung. Mathematische Zeitschrift 29, 436-460.
    Ford, L. R. (1957). Solution of a ranking problem from binary comparisons. American
    Mathematical Monthly 64, 28-33.
    Hunter, D. R. (2004). MM algorithms for generalized Bradley-Terry models. Annals of
    Statistics 32, 384-406.
    """
    wins, draws = pair_counts(comparisons)
    return separation_of((wins + draws) > 0)


def separation_of(beat: NDArray[np.bool_]) -> Separation:
    """:func:`separation` of a "beat or drew" matrix (``beat[i, j]``: ``i`` beat or drew
    with ``j`` at least once), as a caller that holds the counts already passes it."""
    reach = _reachable(beat)
    # i and j share a group when each reaches the other; a group is named by its first
    # system, and the groups are numbered in that order
    mutual = reach & reach.T
    first_of = mutual.argmax(axis=1)
    firsts = np.unique(first_of)
    if firsts.size <= 1:
        return Separation(groups=(), compared=True)
    label = np.searchsorted(firsts, first_of)
    n_groups = firsts.size
    above = np.zeros((n_groups, n_groups), dtype=bool)
    rows, cols = np.nonzero(beat)
    above[label[rows], label[cols]] = True
    np.fill_diagonal(above, False)
    compared = bool(_reachable(beat | beat.T)[0].all())
    # Kahn's order of the groups, the group holding the smallest system first among those
    # ready, so that the order is the same on every machine
    waiting = above.sum(axis=0)
    ready = [g for g in range(n_groups) if waiting[g] == 0]
    order: list[int] = []
    while ready:
        g = ready.pop(0)
        order.append(g)
        for h in np.flatnonzero(above[g]):
            waiting[h] -= 1
            if waiting[h] == 0:
                ready.append(int(h))
                ready.sort()
    groups = tuple(tuple(int(i) for i in np.flatnonzero(label == g)) for g in order)
    return Separation(groups=groups, compared=compared)


def _reachable(edges: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """``reach[i, j]``: whether ``j`` can be reached from ``i`` along ``edges`` (each
    system reaches itself), by squaring the matrix until it stops growing (numpy alone:
    scipy's graph module would cost a ranking's start-up 0.15 s to import)."""
    reach = edges | np.eye(edges.shape[0], dtype=bool)
    while True:
        step = reach.astype(np.float32)
        grown = (step @ step) > 0
        if np.array_equal(grown, reach):
            return reach
        reach = grown


#: chord iterations a warm-started fit tries before Newton takes the rest over
CHORD_ITER = 40


def _gradient(th: FloatArray, tot: FloatArray, wo: FloatArray, ridge: float) -> FloatArray:
    # imported here: scipy.special costs about 0.3 s at every start-up (Django's included)
    from scipy.special import expit

    p = expit(th[:, :, None] - th[:, None, :])  # P(i beats j)
    return wo - np.einsum("rij,rij->ri", tot, p) - ridge * th


def _neg_hessian(th: FloatArray, tot: FloatArray, ridge: float) -> FloatArray:
    from scipy.special import expit

    p = expit(th[:, :, None] - th[:, None, :])
    curvature = tot * p * (1.0 - p)
    return -curvature + np.eye(th.shape[1]) * (curvature.sum(axis=2)[:, :, None] + ridge)


def _centred_largest(step: FloatArray) -> FloatArray:
    # the step's component along (1, ..., 1), which the final centring removes, is held
    # only by the tiny ridge and carries rounding noise: convergence ignores it
    return np.abs(step - step.mean(axis=1, keepdims=True)).max(axis=1)


def _chord(
    theta: FloatArray, total: FloatArray, won: FloatArray, *, ridge: float, tol: float
) -> NDArray[np.int64]:
    """Warm-started fits by the chord method, in place; returns the matrices left to Newton.

    Every matrix steps with one negative Hessian, of the batch's mean counts at the
    start, inverted once (a matrix product per step instead of a solve per matrix):
    replicates of the same data converge linearly at a rate set by how far their counts
    are from the mean, in a few steps. A matrix whose step stops shrinking goes back to
    its start, and one not converged after :data:`CHORD_ITER` steps stays where it got
    to: both are left to Newton's method.
    """
    start = theta.copy()
    mean_start = theta.mean(axis=0, keepdims=True)
    inverse = np.linalg.inv(_neg_hessian(mean_start, total.mean(axis=0, keepdims=True), ridge)[0])
    chord = np.arange(theta.shape[0])
    previous = np.full(chord.size, np.inf)
    to_newton: list[NDArray[np.int64]] = []
    for _ in range(CHORD_ITER):
        th = theta[chord]
        step = _gradient(th, total[chord], won[chord], ridge) @ inverse
        theta[chord] = th + step
        largest = _centred_largest(step)
        stalled = largest >= previous
        theta[chord[stalled]] = start[chord[stalled]]
        to_newton.append(chord[stalled])
        going = (largest >= tol) & ~stalled
        chord, previous = chord[going], largest[going]
        if not chord.size:
            break
    to_newton.append(chord)
    return np.sort(np.concatenate(to_newton))


def _newton(
    theta: FloatArray,
    active: NDArray[np.int64],
    total: FloatArray,
    won: FloatArray,
    *,
    ridge: float,
    tol: float,
    max_iter: int,
    centred: bool,
) -> None:
    """Newton's method on ``theta[active]``, in place. Without ``centred`` every matrix
    steps until all have converged; with it, each stops on its own centred step."""
    th, tot, wo = theta[active], total[active], won[active]
    for _ in range(max_iter):
        if not active.size:
            break
        hessian = _neg_hessian(th, tot, ridge)
        solved = np.linalg.solve(hessian, _gradient(th, tot, wo, ridge)[:, :, None])
        step = np.asarray(solved[:, :, 0], dtype=np.float64)
        largest = np.abs(step).max(axis=1)
        step *= np.minimum(1.0, 4.0 / np.maximum(largest, 1e-300))[:, None]  # cap steps at 4
        th += step
        if centred:
            largest = _centred_largest(step)
        if float(largest.max()) < tol:
            break
        going = largest >= tol
        if centred and not going.all():
            theta[active] = th
            active, th, tot, wo = active[going], th[going], tot[going], wo[going]
    theta[active] = th


def bradley_terry(
    comparisons: Comparisons,
    *,
    rng: np.random.Generator,
    runs: int = 200,
    confidence: float = 0.95,
    ridge: float = 1e-6,
    progress: Callable[[float], None] | None = None,
    resample: str = "auto",
) -> RankingResult:
    """Rank systems by Bradley-Terry strength with bootstrap rank ranges.

    Parameters
    ----------
    comparisons : Comparisons
    rng : numpy.random.Generator
        Replicate ``r`` draws its judgements from the ``r``-th child of
        ``rng.spawn(runs)`` (:func:`~ranking.stats._resample.bootstrap_pair_scores`).
    runs : int, default 200
        Bootstrap replicates.
    confidence : float, default 0.95
        Share of replicates the rank range covers.
    ridge : float, default 1e-6
        Ridge penalty of the fit (see :func:`bradley_terry_fit`).
    resample : {"auto", "patterns", "judgements"}, default "auto"
        How a replicate is drawn (same distribution, different time: see
        :mod:`~ranking.stats._resample`); the choice made is in the result's ``params``.
    progress : callable, optional
        Called with 0.5 once the replicates are drawn and 1.0 at the end.

    Returns
    -------
    RankingResult
        ``value``: strengths of the full data (log-odds, mean zero); ``run_values``:
        the replicates' strengths.

    References
    ----------
    Chiang, W.-L. et al. (2024). Chatbot Arena: An open platform for evaluating LLMs by
    human preference. ICML 2024.
    """
    return bootstrap_pair_scores(
        comparisons,
        partial(bradley_terry_fit, ridge=ridge),
        method="bradley_terry",
        params={"ridge": float(ridge)},
        rng=rng,
        runs=runs,
        confidence=confidence,
        progress=progress,
        warm_start=True,
        resample=resample,
    )


def bt_normal(
    wins: FloatArray, draws: FloatArray, normals: FloatArray, *, confidence: float = 0.95
) -> RankingResult:
    """Bradley-Terry strengths with rank ranges from their normal approximation.

    The strengths are the ridge-penalised maximum-likelihood fit
    (:func:`bradley_terry_fit`, draws split as half a win each). Their covariance is the
    inverse Fisher information (with ``(1 ... 1)(1 ... 1)^T / n`` added, which pins the
    free additive constant, and a ``1e-6`` ridge); each row of ``normals`` becomes one
    draw ``theta + L z`` (``L`` its Cholesky factor), centred to mean zero. The rank
    ranges are the draws' ranks trimmed at ``confidence`` and the clusters the WMT14
    rule on them (:func:`~ranking.stats._result.summarise_runs`). The comparisons of a
    judgement are treated as independent (a judgement of ``k`` outputs counts as
    ``k (k - 1) / 2`` comparisons).

    This is the adaptive design's refit (:func:`~ranking.stats._adaptive.adaptive_refit`)
    and the one ``benchmarks/simulate.py`` validated its stop rule with: the same counts
    and the same ``normals`` give the same clusters. The draws are passed in, not drawn,
    so that refits of growing data can share them (common random numbers: a cluster
    changes because the data did, not the draws).

    Parameters
    ----------
    wins : array_like, shape (n, n)
        ``wins[a, b]``: comparisons ``a`` won against ``b``.
    draws : array_like, shape (n, n)
        Draws between ``a`` and ``b``, symmetric.
    normals : array_like, shape (n_draws, n)
        Standard normal numbers, one row per draw.
    confidence : float, default 0.95
        Share of the draws the rank ranges cover.

    Returns
    -------
    RankingResult
        ``method`` :data:`BT_NORMAL_METHOD`; ``value``: the strengths (log-odds, mean
        zero); ``spread``: the draws' standard deviation; ``n_runs``: the draws.

    References
    ----------
    Bradley, R. A. and Terry, M. E. (1952). Biometrika 39, 324-345.
    Bojar, O. et al. (2014). Findings of the 2014 Workshop on Statistical Machine
    Translation. WMT 2014, 12-58, section 3.3 (clusters from rank ranges).
    """
    w = np.asarray(wins, dtype=np.float64)
    d = np.asarray(draws, dtype=np.float64)
    n = w.shape[0]
    theta = bradley_terry_fit(w, d)
    total = w + w.T + d
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    curvature = total * p * (1.0 - p)
    information = np.diag(curvature.sum(axis=1)) - curvature + 1e-6 * np.eye(n)
    covariance = np.linalg.inv(information + np.ones((n, n)) / n)
    root = np.linalg.cholesky((covariance + covariance.T) / 2)
    run_values = theta + np.asarray(normals, dtype=np.float64) @ root.T
    run_values -= run_values.mean(axis=1, keepdims=True)
    return summarise_runs(
        method=BT_NORMAL_METHOD,
        run_values=run_values,
        value=theta,
        confidence=confidence,
        comparisons=total.sum(axis=1).astype(np.int64),
        n_comparisons=int(total.sum() / 2),
        params={},
    )
