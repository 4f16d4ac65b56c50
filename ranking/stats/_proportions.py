"""Confidence intervals for proportions (e.g. how often workers tick a content check)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["wilson_interval"]

FloatArray = NDArray[np.float64]


def wilson_interval(
    successes: ArrayLike, trials: ArrayLike, *, confidence: float = 0.95
) -> tuple[FloatArray, FloatArray]:
    """Wilson score interval of a binomial proportion, elementwise.

    Parameters
    ----------
    successes, trials : array_like of int
        Counts; ``0 <= successes <= trials``. Where ``trials`` is 0 the interval is
        undefined and both ends are NaN.
    confidence : float, default 0.95
        Two-sided coverage.

    Returns
    -------
    lo, hi : ndarray of float64
        The interval ends, within [0, 1]. Unlike the Wald interval it never leaves
        [0, 1] and keeps a width at 0 or ``trials`` successes.

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
    inference. Journal of the American Statistical Association 22, 209-212.
    Brown, L. D., Cai, T. T. and DasGupta, A. (2001). Interval estimation for a binomial
    proportion. Statistical Science 16, 101-133.
    """
    if not 0 < confidence < 1:
        raise ValueError("confidence must lie in (0, 1)")
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("successes must lie in 0 .. trials")
    # scipy.stats.norm.ppf without scipy.stats; imported here to keep scipy (about 0.3 s)
    # out of every start-up
    from scipy.special import ndtri

    z = float(ndtri(0.5 + confidence / 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
        lo = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        hi = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    return lo, hi
