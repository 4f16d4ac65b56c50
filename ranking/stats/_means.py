"""Mean ratings with confidence intervals, from sufficient statistics (the
MTG-style table, mean 1-5 per criterion, system and language).

A group's ratings arrive as their count, sum and sum of squares (the database adds them
up; the ratings themselves never leave it), so pooling groups is adding their sums. The
interval is Student's t interval of the mean, ``mean +- t(1 - a/2, n - 1) * sd / sqrt(n)``
with the sample standard deviation (``n - 1``). It treats every rating as independent,
as MTG-style tables do; ratings by one worker or of one item are not, so read it as the
usual descriptive interval, not as a test (the TrueSkill clusters beside it are the
test). A group of one rating has a mean and no interval (``nan`` bounds).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MeanIntervals:
    """Per group: ratings, mean, sample standard deviation and the interval's bounds."""

    n: npt.NDArray[np.int64]
    mean: FloatArray
    sd: FloatArray
    low: FloatArray
    high: FloatArray


def mean_intervals(
    n: npt.ArrayLike, total: npt.ArrayLike, squares: npt.ArrayLike, *, confidence: float = 0.95
) -> MeanIntervals:
    """Means and t intervals of groups given as count, sum and sum of squares (arrays of
    one shape). A group of no ratings has ``nan`` throughout; of one, a mean only."""
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be between 0 and 1 (exclusive).")
    from scipy.stats import t as student_t

    count = np.asarray(n, dtype=np.int64)
    s = np.asarray(total, dtype=np.float64)
    ss = np.asarray(squares, dtype=np.float64)
    if count.shape != s.shape or s.shape != ss.shape:
        raise ValueError("n, total and squares must have one shape.")
    if np.any(count < 0):
        raise ValueError("a count cannot be negative.")
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(count > 0, s / np.maximum(count, 1), np.nan)
        # Sum of squared deviations, never below 0 (rounding on equal ratings).
        deviations = np.maximum(ss - count * mean * mean, 0.0)
        sd = np.where(count > 1, np.sqrt(deviations / np.maximum(count - 1, 1)), np.nan)
        quantile = np.where(
            count > 1, student_t.ppf(0.5 + confidence / 2, np.maximum(count - 1, 1)), np.nan
        )
        half = quantile * sd / np.sqrt(np.maximum(count, 1))
    return MeanIntervals(n=count, mean=mean, sd=sd, low=mean - half, high=mean + half)
