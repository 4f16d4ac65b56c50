"""Inter-annotator agreement: Krippendorff's alpha, pure numpy.

Two uses in a campaign, both on a reliability matrix (coders x units, NaN = missing):

- on *pairwise preferences*: a unit is (task, pair of systems); a worker's value is
  +1 / 0 / -1 for "first better" / tie / "second better" (nominal or ordinal level);
- on *scores*: a unit is (task, output); a worker's value is the raw score (interval).

No Django here: selectors build the matrices.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

Level = Literal["nominal", "ordinal", "interval", "ratio"]


def _delta_squared(values: np.ndarray, counts: np.ndarray, level: Level) -> np.ndarray:
    """The difference function delta^2(c, k) between every pair of distinct values."""
    c = values[:, None]
    k = values[None, :]
    if level == "nominal":
        return (c != k).astype(float)
    if level == "interval":
        return (c - k) ** 2
    if level == "ratio":
        total = c + k
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.where(total == 0, 0.0, (c - k) / np.where(total == 0, 1.0, total))
        return d**2
    if level == "ordinal":
        # Krippendorff (2011): sum of n_g for g between c and k, minus half the ends.
        cumulative = np.concatenate([[0.0], np.cumsum(counts)])
        i = np.arange(len(values))
        lo = np.minimum(i[:, None], i[None, :])
        hi = np.maximum(i[:, None], i[None, :])
        between = cumulative[hi + 1] - cumulative[lo]
        d = between - (counts[lo] + counts[hi]) / 2.0
        return d**2
    raise ValueError(f"Unknown level of measurement '{level}'.")


def krippendorff_alpha(reliability: np.ndarray, *, level: Level = "interval") -> float:
    """Krippendorff's alpha of a coders x units matrix with NaN for missing values.

    Parameters
    ----------
    reliability : ndarray of shape (n_coders, n_units)
        Values given by each coder to each unit; ``nan`` where a coder gave none.
    level : {"nominal", "ordinal", "interval", "ratio"}
        Level of measurement, which chooses the difference function.

    Returns
    -------
    float
        ``1 - D_o / D_e``; ``nan`` when fewer than two pairable values exist or
        when there is no variation at all (``D_e == 0``).

    References
    ----------
    K. Krippendorff (2011). Computing Krippendorff's Alpha-Reliability.
    https://repository.upenn.edu/asc_papers/43
    """
    data = np.asarray(reliability, dtype=float)
    if data.ndim != 2:
        raise ValueError("reliability must be a 2-d array (coders x units)")
    coder, unit = np.nonzero(~np.isnan(data))
    return krippendorff_alpha_long(unit, data[coder, unit], level=level)


def krippendorff_alpha_long(
    unit: np.ndarray, value: np.ndarray, *, level: Level = "interval"
) -> float:
    """Krippendorff's alpha from long-format data: one entry per (coder, unit) value.

    Same result as :func:`krippendorff_alpha` on the matrix these entries fill, without
    building the (often sparse) coders x units matrix.

    Parameters
    ----------
    unit : ndarray of int, shape (n,)
        The unit each value belongs to.
    value : ndarray of float, shape (n,)
        The values; each coder contributes at most one per unit.
    level : {"nominal", "ordinal", "interval", "ratio"}
    """
    unit = np.asarray(unit)
    value = np.asarray(value, dtype=float)
    if unit.size == 0:
        return float("nan")
    _, unit_index = np.unique(unit, return_inverse=True)
    m_u = np.bincount(unit_index)
    keep = m_u[unit_index] >= 2
    if not keep.any():
        return float("nan")
    _, unit_index = np.unique(unit_index[keep], return_inverse=True)
    value = value[keep]
    m_u = np.bincount(unit_index)
    values, value_index = np.unique(value, return_inverse=True)
    # Value counts per unit: N[u, v] = how many coders gave unit u the value v.
    counts_uv = np.zeros((len(m_u), len(values)))
    np.add.at(counts_uv, (unit_index, value_index), 1.0)
    weighted = counts_uv / (m_u - 1.0)[:, None]
    # Coincidence matrix o_ck = sum_u (N_uc N_uk - [c=k] N_uc) / (m_u - 1).
    coincidences = weighted.T @ counts_uv - np.diag(weighted.sum(axis=0))
    n_c = coincidences.sum(axis=1)
    n = n_c.sum()
    if n <= 1:
        return float("nan")
    delta2 = _delta_squared(values, n_c, level)
    observed = (coincidences * delta2).sum() / n
    expected = (np.outer(n_c, n_c) * delta2).sum() / (n * (n - 1.0))
    if expected == 0:
        return float("nan")
    return float(1.0 - observed / expected)


def reliability_matrix(
    triples: Iterable[tuple[object, object, float]],
) -> tuple[np.ndarray, list[object], list[object]]:
    """A coders x units matrix from ``(coder, unit, value)`` triples.

    Returns the matrix (NaN where missing) and the coder and unit keys in row and
    column order. A coder's repeated value for the same unit keeps the first one.
    """
    coders: dict[object, int] = {}
    units: dict[object, int] = {}
    cells: list[tuple[int, int, float]] = []
    for coder, unit, value in triples:
        i = coders.setdefault(coder, len(coders))
        j = units.setdefault(unit, len(units))
        cells.append((i, j, float(value)))
    matrix = np.full((len(coders), len(units)), np.nan)
    for i, j, value in reversed(cells):
        matrix[i, j] = value
    return matrix, list(coders), list(units)


def preference(score_a: float, score_b: float) -> int:
    """+1 when the first output is preferred, -1 when the second is, 0 for a tie."""
    return int(np.sign(score_a - score_b))


@dataclass(frozen=True)
class PairwiseKappa:
    """WMT's kappa on pairwise preferences, with what it was computed from."""

    kappa: float  # NaN when no two judgements share a pair of outputs
    comparisons: int  # pairs of outputs compared by two judgements of one task
    observed: float  # P(A): the share of those on which the two judgements agree
    chance: float  # P(E)


def pairwise_kappa(
    judgements: Iterable[tuple[Hashable, Hashable, Mapping[Any, int]]], *, intra: bool
) -> PairwiseKappa:
    """Cohen's kappa as WMT reports annotator agreement (Bojar et al. 2013, section 3.3).

    ``judgements`` are ``(task, worker, preferences)`` with ``preferences`` mapping a pair
    of outputs to +1 / 0 / -1. Every two judgements of the same task, by different
    workers (inter-annotator, ``intra=False``) or by the same worker (intra-annotator,
    ``intra=True``), are compared on each pair of outputs both judged: they agree when
    they give the same preference. P(A) is the share of agreeing comparisons; P(E) =
    P(<)^2 + P(=)^2 + P(>)^2, from the preferences of all the judgements given (as WMT
    from 2013 on); kappa = (P(A) - P(E)) / (1 - P(E)).
    """
    by_task: dict[Hashable, list[tuple[Hashable, Mapping[Any, int]]]] = {}
    totals = np.zeros(3, dtype=np.int64)  # -1, 0, +1
    for task, worker, prefs in judgements:
        by_task.setdefault(task, []).append((worker, prefs))
        for sign in prefs.values():
            totals[sign + 1] += 1
    agree = compared = 0
    for rows in by_task.values():
        for n, (worker_a, prefs_a) in enumerate(rows):
            for worker_b, prefs_b in rows[n + 1 :]:
                if (worker_a == worker_b) != intra:
                    continue
                for pair, sign in prefs_a.items():
                    other = prefs_b.get(pair)
                    if other is not None:
                        compared += 1
                        agree += sign == other
    if compared == 0 or totals.sum() == 0:
        return PairwiseKappa(float("nan"), 0, float("nan"), float("nan"))
    shares = totals / totals.sum()
    chance = float(np.sum(shares**2))
    observed = agree / compared
    kappa = (observed - chance) / (1.0 - chance) if chance < 1.0 else float("nan")
    return PairwiseKappa(float(kappa), compared, observed, chance)
