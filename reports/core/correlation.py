"""Metric-human correlation: system-level and segment-level Pearson, Spearman and Kendall
tau with percentile bootstrap confidence intervals, following the WMT metrics task.

Conventions (Ma, Bojar and Graham 2018; Ma, Wei, Bojar and Graham 2019):

* **System level**: one value per system for the metric and for the humans. Pearson's r
  (WMT's official system-level statistic), Spearman's rho and Kendall's **tau-b**
  (``scipy.stats.kendalltau``, ``variant="b"``: ties in either variable reduce the
  denominator, ``sqrt((n0 - n1)(n0 - n2))``). The bootstrap resamples systems.
* **Segment level**: one value per output (segment). Pearson, Spearman and tau-b of all
  segments pooled, and WMT's **tau-like** formulation on DARR-style pairs: every pair of
  outputs *of the same item* whose human scores differ is a pair (human ties are left
  out, as DARR leaves out pairs of close DA scores); it is Concordant when the metric
  orders it the same way and Discordant otherwise, **a metric tie counting as
  Discordant** (WMT18/WMT19's penalty on metric ties);
  ``tau = (Concordant - Discordant) / (Concordant + Discordant)``. The bootstrap
  resamples items (all of an item's outputs together), so the within-item pairs stay
  intact.

Intervals are percentile intervals of ``resamples`` bootstrap replicates drawn with the
``numpy.random.Generator`` passed in (a report gives each metric its own,
:func:`metric_rng`, so importing another metric moves no metric's interval); replicates where a statistic is undefined (e.g.
every resampled system has the same metric score) are left out, and ``valid`` says how
many were used.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "METHODS",
    "SEGMENT_METHODS",
    "Correlation",
    "metric_rng",
    "segment_correlations",
    "system_correlations",
    "tau_like",
    "tau_like_counts",
]

FloatArray = NDArray[np.float64]

#: system-level statistics, in table order
METHODS: tuple[str, ...] = ("pearson", "spearman", "kendall")
#: segment-level statistics, in table order (``tau_like`` is WMT's)
SEGMENT_METHODS: tuple[str, ...] = ("pearson", "spearman", "kendall", "tau_like")

LABELS: dict[str, str] = {
    "pearson": "Pearson r",
    "spearman": "Spearman rho",
    "kendall": "Kendall tau-b",
    "tau_like": "Kendall tau-like (WMT)",
}


@dataclass(frozen=True)
class Correlation:
    """One statistic with its bootstrap interval.

    ``n`` is the number of systems (system level), of segments (segment level) or of
    human-ordered within-item pairs (``tau_like``); ``valid`` how many of the
    ``resamples`` replicates were defined. ``value``, ``low`` and ``high`` are NaN when
    undefined (fewer than two distinct values).
    """

    level: str
    method: str
    value: float
    low: float
    high: float
    n: int
    resamples: int
    valid: int
    confidence: float

    @property
    def label(self) -> str:
        return LABELS[self.method]


def metric_rng(seed: int, metric: str) -> np.random.Generator:
    """The bootstrap stream of one metric in a report seeded with ``seed``.

    Derived from the seed and a stable hash of the metric's name (SHA-256, not Python's
    salted ``hash``) as a ``numpy.random.SeedSequence`` spawn key: the same on every run
    and machine, and independent of which other metrics the report holds or their order.
    """
    digest = hashlib.sha256(metric.encode("utf-8")).digest()
    key = tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 32, 4))
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def _stats() -> Any:
    # scipy.stats is imported when a correlation is computed, not at start-up (1-2 s of
    # every web process's start, through the URLconf).
    from scipy import stats

    return stats


def _pearson(x: FloatArray, y: FloatArray) -> float:
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return math.nan
    return float(_stats().pearsonr(x, y).statistic)


def _spearman(x: FloatArray, y: FloatArray) -> float:
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return math.nan
    return float(_stats().spearmanr(x, y).statistic)


def _kendall(x: FloatArray, y: FloatArray) -> float:
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return math.nan
    return float(_stats().kendalltau(x, y, variant="b").statistic)


_STATISTICS: dict[str, Callable[[FloatArray, FloatArray], float]] = {
    "pearson": _pearson,
    "spearman": _spearman,
    "kendall": _kendall,
}


def _pair(metric: ArrayLike, human: ArrayLike) -> tuple[FloatArray, FloatArray]:
    x = np.asarray(metric, dtype=np.float64)
    y = np.asarray(human, dtype=np.float64)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError("metric and human must be one-dimensional and of the same length")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("metric and human scores must be finite")
    return x, y


def _interval(replicates: FloatArray, confidence: float) -> tuple[float, float, int]:
    finite = replicates[np.isfinite(replicates)]
    if finite.size == 0:
        return math.nan, math.nan, 0
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(finite, [tail, 100.0 - tail])
    return float(low), float(high), int(finite.size)


def _check(resamples: int, confidence: float) -> None:
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must lie between 0 and 1")


def system_correlations(
    metric: ArrayLike,
    human: ArrayLike,
    *,
    rng: np.random.Generator,
    resamples: int = 1000,
    confidence: float = 0.95,
) -> list[Correlation]:
    """System-level Pearson, Spearman and Kendall tau-b, each with a bootstrap interval.

    Parameters
    ----------
    metric, human : array_like of float, shape (n_systems,)
        The metric's and the humans' score of each system (same order).
    rng : numpy.random.Generator
        Draws the bootstrap resamples of systems (the same resamples for every statistic).
    resamples : int
        Number of bootstrap replicates.
    confidence : float
        Coverage of the percentile interval.

    Returns
    -------
    list of Correlation
        In :data:`METHODS` order; the point estimates equal ``scipy.stats``' exactly.

    References
    ----------
    Ma, Q., Wei, J., Bojar, O. and Graham, Y. (2019). Results of the WMT19 metrics shared
    task. WMT 2019, 62-90.
    """
    _check(resamples, confidence)
    x, y = _pair(metric, human)
    n = x.size
    draws = rng.integers(0, n, size=(resamples, n)) if n else np.zeros((resamples, 0), int)
    out = []
    for method in METHODS:
        statistic = _STATISTICS[method]
        replicates = np.array([statistic(x[d], y[d]) for d in draws], dtype=np.float64)
        low, high, valid = _interval(replicates, confidence)
        out.append(
            Correlation(
                "system", method, statistic(x, y), low, high, n, resamples, valid, confidence
            )
        )
    return out


def tau_like_counts(
    metric: ArrayLike, human: ArrayLike, groups: ArrayLike
) -> tuple[NDArray[Any], NDArray[np.int64], NDArray[np.int64]]:
    """Concordant and Discordant within-group pairs, per group (WMT's tau-like).

    Returns ``(group_ids, concordant, discordant)``, one entry per distinct group (sorted).
    A pair is two segments of one group with different human scores; Concordant when the
    metric orders them the same way, Discordant when the other way or tied.
    """
    x, y = _pair(metric, human)
    g = np.asarray(groups)
    if g.shape != x.shape:
        raise ValueError("groups must have one entry per segment")
    ids, inverse = np.unique(g, return_inverse=True)
    concordant = np.zeros(ids.size, dtype=np.int64)
    discordant = np.zeros(ids.size, dtype=np.int64)
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(ids.size + 1))
    for k in range(ids.size):
        members = order[bounds[k] : bounds[k + 1]]
        if members.size < 2:
            continue
        dh = np.sign(y[members][:, None] - y[members][None, :])
        dm = np.sign(x[members][:, None] - x[members][None, :])
        upper = np.triu(np.ones((members.size, members.size), dtype=bool), k=1)
        ordered = upper & (dh != 0)
        agree = (dh == dm) & ordered
        concordant[k] = int(agree.sum())
        discordant[k] = int(ordered.sum() - agree.sum())
    return ids, concordant, discordant


def tau_like(metric: ArrayLike, human: ArrayLike, groups: ArrayLike) -> float:
    """WMT's segment-level Kendall tau-like: ``(C - D) / (C + D)`` over the within-group
    pairs the humans order (metric ties are Discordant). NaN without such pairs.

    References
    ----------
    Ma, Q., Bojar, O. and Graham, Y. (2018). Results of the WMT18 metrics shared task.
    WMT 2018, 671-688 (section 3.2, the DARR tau-like formulation).
    """
    _, c, d = tau_like_counts(metric, human, groups)
    total = int(c.sum() + d.sum())
    return math.nan if total == 0 else float((c.sum() - d.sum()) / total)


def segment_correlations(
    metric: ArrayLike,
    human: ArrayLike,
    groups: ArrayLike,
    *,
    rng: np.random.Generator,
    resamples: int = 1000,
    confidence: float = 0.95,
) -> list[Correlation]:
    """Segment-level Pearson, Spearman, Kendall tau-b (segments pooled) and WMT's
    tau-like (within-group pairs), each with a bootstrap interval over groups.

    Parameters
    ----------
    metric, human : array_like of float, shape (n_segments,)
        The metric's and the humans' score of each segment (output).
    groups : array_like, shape (n_segments,)
        The item of each segment; tau-like pairs only segments of one item and the
        bootstrap resamples whole items.
    rng, resamples, confidence
        As in :func:`system_correlations`.

    Returns
    -------
    list of Correlation
        In :data:`SEGMENT_METHODS` order.
    """
    _check(resamples, confidence)
    x, y = _pair(metric, human)
    g = np.asarray(groups)
    if g.shape != x.shape:
        raise ValueError("groups must have one entry per segment")
    _, inverse = np.unique(g, return_inverse=True)
    n_groups = int(inverse.max()) + 1 if inverse.size else 0
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(n_groups + 1))
    members = [order[bounds[k] : bounds[k + 1]] for k in range(n_groups)]
    draws = (
        rng.integers(0, n_groups, size=(resamples, n_groups))
        if n_groups
        else np.zeros((resamples, 0), dtype=np.int64)
    )
    rows = [np.concatenate([members[k] for k in d]) if d.size else np.zeros(0, int) for d in draws]
    out = []
    for method in METHODS:
        statistic = _STATISTICS[method]
        replicates = np.array([statistic(x[r], y[r]) for r in rows], dtype=np.float64)
        low, high, valid = _interval(replicates, confidence)
        out.append(
            Correlation(
                "segment", method, statistic(x, y), low, high, x.size, resamples, valid, confidence
            )
        )
    _, c, d = tau_like_counts(x, y, inverse)
    pairs = c + d
    value = math.nan if pairs.sum() == 0 else float((c.sum() - d.sum()) / pairs.sum())
    if n_groups:
        counts = np.stack([np.bincount(dr, minlength=n_groups) for dr in draws])
        num = counts @ (c - d)
        den = counts @ pairs
        with np.errstate(invalid="ignore", divide="ignore"):
            replicates = np.where(den > 0, num / np.maximum(den, 1), np.nan).astype(np.float64)
    else:
        replicates = np.full(resamples, np.nan)
    low, high, valid = _interval(replicates, confidence)
    out.append(
        Correlation(
            "segment",
            "tau_like",
            value,
            low,
            high,
            int(pairs.sum()),
            resamples,
            valid,
            confidence,
        )
    )
    return out
