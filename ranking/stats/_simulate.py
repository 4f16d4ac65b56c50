"""A generative simulator of crowd judgements, fitted to a real campaign.

Pure numpy (no scipy, no Django); every random draw comes from the
``numpy.random.Generator`` passed in. It answers any task (a set of distinct systems
on an item) the way a crowd worker of the fitted campaign would, on a RankME
magnitude scale, a 0-100 slider or a 1-5 Likert scale, so that task designs can be
compared on a known truth (``benchmarks/simulate.py``).

The model (natural-log magnitudes; one judgement ``j`` of item ``i`` by worker ``w``,
output of system ``s``)::

    z = offset_w + g_j + scale_w * (quality_s + difficulty_i + u_is) + e

- ``quality_s``: the system's latent quality (what a ranking should recover);
- ``difficulty_i``: the item's (input's) difficulty, shared by every output of it;
- ``u_is ~ N(0, interaction^2)``: how good this system's output for this item is
  beyond the system's average: drawn once per simulated campaign
  (:meth:`Simulator.draw_outputs`), so workers judging the same output agree on it;
- ``offset_w``, ``scale_w``: the worker's level and use of the scale;
- ``g_j ~ N(0, judgement_sd^2)``: the level of one judgement (a worker re-anchors on
  the standard at every task);
- ``e ~ N(0, noise_w^2)``: the worker's own noise;
- with probability ``flat_share_w`` the judgement is *flat* instead: every output gets
  the worker's ``flat_value_w`` (28% of the E2E quality judgements score all five
  outputs alike, most often 100), which no continuous noise reproduces.

A RankME score is ``exp(z)``, capped at the standard (100) for workers who never
scored above it (most E2E workers treat the standard as the top of the scale), rounded
to the worker's grid (1, 5, 10, 25 or 50, as the worker rounded) and at least 1: so
ties and the mass at 100 come out as in the real data. A slider is
``100 * z / ln(100)`` (the standard at 100, a score of 1 at 0) clipped to 0-100 and
rounded to the worker's step; a Likert level cuts the slider at 20, 40, 60 and 80.
The slider and Likert mappings are assumptions (the E2E campaign used RankME only).

Common random numbers: :meth:`Simulator.draw_stream` draws a crowd's random numbers
in advance (per request its item, worker, judgement level and flat draw; per request
and system the noise), and :meth:`Simulator.answer_stream` answers the ``j``-th request
from its ``j``-th row, so two task designs answered from one stream get the same score
for the same output at the same request and differ only in what they ask.

:func:`fit` estimates every parameter from RankME judgements by an EM-style
alternation: scores at a capped worker's ceiling are right-censored (replaced by their
conditional expectation under the current fit, a Tobit step), the judgement levels are
shrunken random effects, the worker's scale and level a regression per worker shrunk
towards 1 and 0, and the interaction is read from the covariance of residuals of
different workers judging the same output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["SCALES", "AnswerStream", "Simulator", "fit", "fit_simulator", "pair_shares"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

#: the answer scales: RankME magnitudes (standard 100), a 0-100 slider, Likert 1-5
SCALES = ("rankme", "slider", "likert")
#: the rounding grids a worker may use (RankME scores)
GRIDS = (50.0, 25.0, 10.0, 5.0, 1.0)
STANDARD = 100.0
#: slider cut points of the Likert levels 2..5
LIKERT_CUTS = (20.0, 40.0, 60.0, 80.0)
#: entries worth of the prior that pulls a worker's scale to 1 and noise to the pool's
SHRINK = 20.0
#: judgements worth of the prior that pulls a worker's flat share to the pool's
FLAT_SHRINK = 5.0


@dataclass(frozen=True, eq=False)
class Simulator:
    """A fitted (or hand-made) crowd: systems, items, workers and their noise.

    Attributes
    ----------
    quality : (n_systems,) latent quality per system (log-magnitude units).
    difficulty : (n_items,) per item.
    interaction : sd of an output's deviation from its system's quality.
    judgement_sd : sd of a judgement's level.
    offset, scale, noise : (n_workers,) each worker's level, scale use and noise sd.
    capped : (n_workers,) True: the worker never scores above the standard.
    grid : (n_workers,) the worker's rounding step (RankME units).
    weight : (n_workers,) how often each worker answers (sums to 1).
    flat_share : (n_workers,) the share of the worker's judgements that give every
        output the same score (``flat_value``, most often the standard) whatever the
        outputs: a quarter of the E2E judgements.
    flat_value : (n_workers,) that score.
    """

    quality: FloatArray
    difficulty: FloatArray
    interaction: float
    judgement_sd: float
    offset: FloatArray
    scale: FloatArray
    noise: FloatArray
    capped: BoolArray
    grid: FloatArray
    weight: FloatArray
    flat_share: FloatArray
    flat_value: FloatArray

    @property
    def n_systems(self) -> int:
        return int(self.quality.shape[0])

    @property
    def n_items(self) -> int:
        return int(self.difficulty.shape[0])

    @property
    def n_workers(self) -> int:
        return int(self.offset.shape[0])

    def with_quality(self, quality: ArrayLike) -> Simulator:
        """The same crowd and items judging systems of the given latent qualities."""
        q = np.asarray(quality, dtype=np.float64)
        if q.ndim != 1 or q.shape[0] < 1 or not np.all(np.isfinite(q)):
            raise ValueError("quality must be a finite 1-D array")
        return replace(self, quality=q.copy())

    def with_interaction(self, interaction: float) -> Simulator:
        """The same crowd with another output sd, each worker's total variance kept.

        Agreement between workers grows with the share of the variance that the outputs
        carry; the worker noise gives up what the outputs take (never below 5% of it).
        """
        if not interaction >= 0:
            raise ValueError("interaction must be non-negative")
        total = self.noise**2 + self.scale**2 * self.interaction**2
        noise = np.sqrt(np.maximum(total - self.scale**2 * interaction**2, 0.05 * self.noise**2))
        return replace(self, interaction=float(interaction), noise=noise)

    def draw_outputs(self, rng: np.random.Generator) -> FloatArray:
        """One campaign's output deviations ``u`` (n_items, n_systems)."""
        return self.interaction * rng.standard_normal((self.n_items, self.n_systems))

    def latent(
        self,
        tasks: ArrayLike,
        *,
        rng: np.random.Generator,
        items: ArrayLike | None = None,
        workers: ArrayLike | None = None,
        outputs: FloatArray | None = None,
    ) -> tuple[FloatArray, IntArray]:
        """Log magnitudes ``z`` (n_tasks, k) of the tasks, and the workers who gave them.

        ``tasks``: system indices (n_tasks, k), distinct within a row (-1 pads a shorter
        task: its entries are NaN). ``items``: each task's item (default: drawn
        uniformly); ``workers``: each task's worker (default: drawn by ``weight``);
        ``outputs``: :meth:`draw_outputs` of the campaign (default: drawn here, so the
        same output judged in two calls differs).
        """
        t = self._check_tasks(tasks)
        n_tasks = t.shape[0]
        present = t >= 0
        it = (
            rng.integers(self.n_items, size=n_tasks)
            if items is None
            else np.asarray(items, dtype=np.int64)
        )
        wk: IntArray = (
            np.asarray(rng.choice(self.n_workers, size=n_tasks, p=self.weight), dtype=np.int64)
            if workers is None
            else np.asarray(workers, dtype=np.int64)
        )
        if it.shape != (n_tasks,) or wk.shape != (n_tasks,):
            raise ValueError("items and workers need one entry per task")
        if np.any((it < 0) | (it >= self.n_items)) or np.any((wk < 0) | (wk >= self.n_workers)):
            raise ValueError("item or worker index out of range")
        u = self.draw_outputs(rng) if outputs is None else outputs
        s = np.where(present, t, 0)
        level = self.offset[wk] + self.judgement_sd * rng.standard_normal(n_tasks)
        signal = self.quality[s] + self.difficulty[it][:, None] + u[it[:, None], s]
        z = (
            level[:, None]
            + self.scale[wk][:, None] * signal
            + self.noise[wk][:, None] * rng.standard_normal(t.shape)
        )
        return np.where(present, z, np.nan), wk

    def answer(
        self,
        tasks: ArrayLike,
        *,
        rng: np.random.Generator,
        scale: str = "rankme",
        items: ArrayLike | None = None,
        workers: ArrayLike | None = None,
        outputs: FloatArray | None = None,
    ) -> FloatArray:
        """Scores (n_tasks, k) of the tasks on ``scale`` (see :data:`SCALES`).

        RankME: positive magnitudes relative to the standard 100, rounded as the worker
        rounds (ties possible); slider: 0-100; Likert: 1-5. Padding (-1) gives NaN.
        The arguments are those of :meth:`latent`.
        """
        if scale not in SCALES:
            raise ValueError(f"scale must be one of {', '.join(SCALES)}")
        z, wk = self.latent(tasks, rng=rng, items=items, workers=workers, outputs=outputs)
        flat = rng.random(wk.shape[0]) < self.flat_share[wk]
        return self._scores(z, wk, flat, scale)

    def draw_stream(self, rng: np.random.Generator, n_judgements: int) -> AnswerStream:
        """The crowd's random numbers for ``n_judgements`` requests, drawn in advance.

        Common random numbers: designs that answer their ``j``-th request from the
        same stream (:meth:`answer_stream`) get the same item, worker, judgement level
        and flat-or-not for it, and the same noise for every system they show, so an
        output shown by two designs at the same request gets the same score. Items
        run through random permutations (every item once before any twice, as
        production hands out the least-used item first).
        """
        if n_judgements < 1:
            raise ValueError("n_judgements must be at least 1")
        rounds = -(-n_judgements // self.n_items)
        items = np.concatenate([rng.permutation(self.n_items) for _ in range(rounds)])
        return AnswerStream(
            item=items[:n_judgements].astype(np.int64),
            worker=np.asarray(
                rng.choice(self.n_workers, size=n_judgements, p=self.weight), dtype=np.int64
            ),
            level=rng.standard_normal(n_judgements),
            flat=rng.random(n_judgements),
            noise=rng.standard_normal((n_judgements, self.n_systems)),
        )

    def answer_stream(
        self,
        tasks: ArrayLike,
        stream: AnswerStream,
        *,
        first: int,
        outputs: FloatArray,
        scale: str = "rankme",
    ) -> FloatArray:
        """Scores of ``tasks`` as the requests ``first, first + 1, ...`` of ``stream``.

        Deterministic: request ``j``'s item, worker, level and flat draw are
        ``stream``'s ``j``-th, and system ``s``'s noise is ``stream.noise[j, s]``
        whatever its position in the task (see :meth:`draw_stream`). ``outputs``: the
        test set (:meth:`draw_outputs`). Otherwise as :meth:`answer`.
        """
        if scale not in SCALES:
            raise ValueError(f"scale must be one of {', '.join(SCALES)}")
        t = self._check_tasks(tasks)
        rows = first + np.arange(t.shape[0])
        if first < 0 or rows[-1] >= stream.item.shape[0]:
            raise ValueError(f"the stream holds {stream.item.shape[0]} requests")
        if stream.noise.shape[1] != self.n_systems:
            raise ValueError("the stream was drawn for another number of systems")
        present = t >= 0
        s = np.where(present, t, 0)
        it, wk = stream.item[rows], stream.worker[rows]
        level = self.offset[wk] + self.judgement_sd * stream.level[rows]
        signal = self.quality[s] + self.difficulty[it][:, None] + outputs[it[:, None], s]
        z = (
            level[:, None]
            + self.scale[wk][:, None] * signal
            + self.noise[wk][:, None] * stream.noise[rows[:, None], s]
        )
        z = np.where(present, z, np.nan)
        flat = stream.flat[rows] < self.flat_share[wk]
        return self._scores(z, wk, flat, scale)

    def _check_tasks(self, tasks: ArrayLike) -> IntArray:
        t = np.asarray(tasks, dtype=np.int64)
        if t.ndim != 2 or t.shape[1] < 1:
            raise ValueError("tasks must have shape (n_tasks, k)")
        if np.any(t >= self.n_systems):
            raise ValueError(f"system indices must lie in 0 .. {self.n_systems - 1}")
        ordered = np.sort(t, axis=1)
        if np.any((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0)):
            raise ValueError("the systems of a task must be distinct")
        return t

    def _scores(self, z: FloatArray, wk: IntArray, flat: BoolArray, scale: str) -> FloatArray:
        """Log magnitudes ``z`` as scores on ``scale`` (flat judgements replaced)."""
        z = np.where(flat[:, None] & ~np.isnan(z), np.log(self.flat_value[wk])[:, None], z)
        grid = np.where(flat, 1.0, self.grid[wk])[:, None]
        if scale == "rankme":
            top = np.where(self.capped[wk], math.log(STANDARD), 50.0)[:, None]
            magnitude = np.exp(np.minimum(z, top))
            return np.maximum(np.round(magnitude / grid) * grid, 1.0)
        step = np.where(grid >= 25, 10.0, np.where(grid >= 10, 5.0, 1.0))
        slider = np.clip(np.round(100.0 * z / math.log(STANDARD) / step) * step, 0.0, 100.0)
        if scale == "slider":
            return slider
        levels = 1.0 + sum((slider > c).astype(np.float64) for c in LIKERT_CUTS)
        return np.where(np.isnan(z), np.nan, levels)


@dataclass(frozen=True, eq=False)
class AnswerStream:
    """A crowd's random numbers drawn in advance, one row per request
    (:meth:`Simulator.draw_stream`).

    Attributes
    ----------
    item, worker : (n_requests,) the request's item and worker.
    level : (n_requests,) standard normal: the judgement's level ``g_j / judgement_sd``.
    flat : (n_requests,) uniform: the judgement is flat when below the worker's share.
    noise : (n_requests, n_systems) standard normal: each system's ``e / noise_w``.
    """

    item: IntArray
    worker: IntArray
    level: FloatArray
    flat: FloatArray
    noise: FloatArray


def pair_shares(
    simulator: Simulator,
    *,
    rng: np.random.Generator,
    judgements: int = 20000,
    k: int = 5,
    outputs: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Each pair's true win share (draws counting half) and draw share, by Monte Carlo.

    ``judgements`` RankME judgements of ``min(k, n_systems)`` systems drawn at random
    per task, on random items. ``outputs``: a fixed test set's output deviations
    (:meth:`Simulator.draw_outputs`); by default fresh ones for each block of 5,000
    judgements (the shares of the systems over test sets). Returns ``share[a, b]``
    (``a``'s share against ``b``) and the symmetric ``draws[a, b]``.
    """
    n = simulator.n_systems
    k = min(k, n)
    wins = np.zeros((n, n))
    ties = np.zeros((n, n))
    done = 0
    while done < judgements:
        size = min(5000, judgements - done)
        tasks = np.argsort(rng.random((size, n)), axis=1)[:, :k]
        shown = simulator.draw_outputs(rng) if outputs is None else outputs
        scores = simulator.answer(tasks, rng=rng, outputs=shown)
        for a in range(k):
            for b in range(a + 1, k):
                sa, sb = tasks[:, a], tasks[:, b]
                xa, xb = scores[:, a], scores[:, b]
                np.add.at(wins, (sa[xa > xb], sb[xa > xb]), 1.0)
                np.add.at(wins, (sb[xb > xa], sa[xb > xa]), 1.0)
                np.add.at(ties, (sa[xa == xb], sb[xa == xb]), 1.0)
        done += size
    ties = ties + ties.T
    total = wins + wins.T + ties
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(total > 0, (wins + ties / 2) / total, 0.5)
        draws = np.where(total > 0, ties / total, 0.0)
    np.fill_diagonal(share, 0.5)
    np.fill_diagonal(draws, 0.0)
    return share, draws


# --- fitting -------------------------------------------------------------------------


def _erfc(x: FloatArray) -> FloatArray:
    """Complementary error function (Numerical Recipes' erfcc: relative error < 1.2e-7)."""
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = (
        -z * z
        - 1.26551223
        + t
        * (
            1.00002368
            + t
            * (
                0.37409196
                + t
                * (
                    0.09678418
                    + t
                    * (
                        -0.18628806
                        + t
                        * (
                            0.27886807
                            + t
                            * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))
                        )
                    )
                )
            )
        )
    )
    r = t * np.exp(poly)
    return np.where(x >= 0, r, 2.0 - r)


def _mills(alpha: FloatArray) -> FloatArray:
    """``phi(a) / (1 - Phi(a))``, the inverse Mills ratio of the upper tail."""
    a = np.asarray(alpha, dtype=np.float64)
    tail = 0.5 * _erfc(a / math.sqrt(2.0))
    dens = np.exp(-0.5 * a * a) / math.sqrt(2.0 * math.pi)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = dens / tail
    asymptotic = a + 1.0 / np.maximum(a, 1e-9)
    return np.where((a > 8.0) | ~np.isfinite(ratio), asymptotic, ratio)


def _worker_grid(scores: FloatArray) -> float:
    """The coarsest grid on which at least 90% of a worker's non-standard scores lie."""
    free = scores[scores != STANDARD]
    if free.size == 0:
        return 10.0
    for g in GRIDS:
        if np.mean(np.mod(free, g) == 0) >= 0.9:
            return g
    return 1.0


def _group_mean(values: FloatArray, group: IntArray, n: int, weights: FloatArray) -> FloatArray:
    total = np.bincount(group, weights=weights, minlength=n)
    return np.bincount(group, weights=weights * values, minlength=n) / np.maximum(total, 1e-12)


def fit(
    *,
    judgement_item: ArrayLike,
    judgement_worker: ArrayLike,
    systems: ArrayLike,
    scores: ArrayLike,
    n_systems: int | None = None,
    iterations: int = 40,
) -> Simulator:
    """Fit a :class:`Simulator` to RankME judgements.

    Parameters
    ----------
    judgement_item, judgement_worker : array_like of int, shape (n_judgements,)
        Each judgement's item and worker (indices from 0; items and workers that never
        appear keep neutral parameters).
    systems : array_like of int, shape (n_judgements, k)
        The systems of each judgement (-1: no output in that slot).
    scores : array_like of float, shape (n_judgements, k)
        The RankME scores (positive), same shape.
    n_systems : int, optional
        Defaults to ``max(systems) + 1``.
    iterations : int, default 40
        EM sweeps.
    """
    item_of = np.asarray(judgement_item, dtype=np.int64)
    worker_of = np.asarray(judgement_worker, dtype=np.int64)
    sy = np.asarray(systems, dtype=np.int64)
    sc = np.asarray(scores, dtype=np.float64)
    if sy.ndim != 2 or sc.shape != sy.shape or item_of.shape != (sy.shape[0],):
        raise ValueError("systems and scores are (n_judgements, k); items one per judgement")
    if worker_of.shape != item_of.shape:
        raise ValueError("workers: one per judgement")
    mask = sy >= 0
    if np.any(sc[mask] <= 0) or not np.all(np.isfinite(sc[mask])):
        raise ValueError("RankME scores must be positive and finite")
    n_sys = int(sy.max()) + 1 if n_systems is None else int(n_systems)
    n_items = int(item_of.max()) + 1
    n_workers = int(worker_of.max()) + 1
    k_of = mask.sum(axis=1)
    high = np.where(mask, sc, -np.inf).max(axis=1)
    low = np.where(mask, sc, np.inf).min(axis=1)
    flat = (k_of >= 2) & (high == low)
    judged = np.bincount(worker_of, minlength=n_workers).astype(np.float64)
    flats = np.bincount(worker_of, weights=flat.astype(np.float64), minlength=n_workers)
    pooled_flat = float(flats.sum() / judged.sum())
    flat_share = (flats + FLAT_SHRINK * pooled_flat) / (judged + FLAT_SHRINK)
    flat_value = np.full(n_workers, STANDARD)
    for v in np.unique(worker_of[flat]):
        values, counts = np.unique(high[flat & (worker_of == v)], return_counts=True)
        flat_value[v] = values[np.argmax(counts)]

    rows, cols = np.nonzero(mask & ~flat[:, None])
    s = sy[rows, cols]
    x = sc[rows, cols]
    j = rows
    i = item_of[rows]
    w = worker_of[rows]
    n_j = sy.shape[0]
    ones = np.ones(x.shape[0])

    count_w = np.bincount(w, minlength=n_workers).astype(np.float64)
    top_w = np.full(n_workers, -np.inf)
    np.maximum.at(top_w, w, x)
    capped = top_w <= STANDARD
    censored = capped[w] & (x >= STANDARD)
    cut = math.log(STANDARD)
    grid = np.array(
        [_worker_grid(x[w == v]) if count_w[v] else 10.0 for v in range(n_workers)],
        dtype=np.float64,
    )

    y = np.log(x)
    offset = _group_mean(y, w, n_workers, ones)
    scale = np.ones(n_workers)
    quality = np.zeros(n_sys)
    difficulty = np.zeros(n_items)
    level = np.zeros(n_j)
    noise = np.full(n_workers, max(float(np.std(y)), 0.1))
    interaction = 0.1
    judgement_sd = 0.1
    z = y.copy()
    # the expected squared residual of each entry (a censored one's is conditional)
    for sweep in range(iterations):
        a = scale[w]
        var_e = a * a * interaction**2 + noise[w] ** 2
        mean = offset[w] + level[j] + a * (quality[s] + difficulty[i])
        sd = np.sqrt(var_e)
        alpha = (cut - mean) / sd
        lam = _mills(alpha)
        z = np.where(censored, np.maximum(mean + sd * lam, cut), y)
        omega = 1.0 / var_e

        # judgement levels: shrunken random effects
        r = z - offset[w] - a * (quality[s] + difficulty[i])
        prec = np.bincount(j, weights=omega, minlength=n_j) + 1.0 / judgement_sd**2
        level = np.bincount(j, weights=omega * r, minlength=n_j) / prec
        judgement_sd = math.sqrt(max(float(np.mean(level**2 + 1.0 / prec)), 1e-6))

        # systems, then items (weighted least squares given the workers)
        base = z - offset[w] - level[j]
        quality = np.bincount(
            s, weights=omega * a * (base - a * difficulty[i]), minlength=n_sys
        ) / np.maximum(np.bincount(s, weights=omega * a * a, minlength=n_sys), 1e-12)
        quality -= quality.mean()
        difficulty = np.bincount(
            i, weights=omega * a * (base - a * quality[s]), minlength=n_items
        ) / (np.bincount(i, weights=omega * a * a, minlength=n_items) + 1.0)

        # workers: level and scale by regression, shrunk towards 0 and 1
        signal = quality[s] + difficulty[i]
        base = z - level[j]
        zbar = _group_mean(base, w, n_workers, ones)
        sbar = _group_mean(signal, w, n_workers, ones)
        cov = np.bincount(w, weights=(base - zbar[w]) * (signal - sbar[w]), minlength=n_workers)
        var = np.bincount(w, weights=(signal - sbar[w]) ** 2, minlength=n_workers)
        prior = SHRINK * float(np.mean(var / np.maximum(count_w, 1)))
        if sweep >= iterations // 4:  # the scales once the qualities have settled
            scale = np.clip((cov + prior) / (var + prior), 0.1, 10.0)
        geo = math.exp(float(np.sum(count_w * np.log(scale)) / count_w.sum()))
        scale /= geo
        quality *= geo
        difficulty *= geo
        raw = zbar - scale * sbar
        centre = float(np.sum(count_w * raw) / count_w.sum())
        offset = (count_w * raw + SHRINK * centre) / (count_w + SHRINK)

        # residual variance, from the uncensored entries (a censored entry's imputed
        # residual is positive whatever the output: its products would inflate the
        # covariance): the output interaction from residuals of different workers on
        # the same output, the rest the workers' noise
        a = scale[w]
        resid = z - offset[w] - level[j] - a * (quality[s] + difficulty[i])
        per = np.where(censored, 0.0, resid / a)
        seen = (~censored).astype(np.float64)
        _, inverse = np.unique(i * n_sys + s, return_inverse=True)
        total = np.bincount(inverse, weights=per)
        squares = np.bincount(inverse, weights=per * per)
        count = np.bincount(inverse, weights=seen)
        pairs = (count * (count - 1)).sum() / 2.0
        if pairs > 0:
            cross = (total**2 - squares).sum() / 2.0
            interaction = math.sqrt(max(cross / pairs, 1e-4))
        free_w = np.bincount(w, weights=seen, minlength=n_workers)
        mean_sq = np.bincount(w, weights=seen * resid**2, minlength=n_workers)
        pooled = float(mean_sq.sum() / max(free_w.sum(), 1.0))
        noise_var = (mean_sq + SHRINK * pooled) / (free_w + SHRINK) - scale**2 * interaction**2
        noise = np.sqrt(np.maximum(noise_var, 0.05 * pooled))

    weight = judged / judged.sum()
    return Simulator(
        quality=quality,
        difficulty=difficulty,
        interaction=float(interaction),
        judgement_sd=float(judgement_sd),
        offset=offset,
        scale=scale,
        noise=noise,
        capped=capped,
        grid=grid,
        weight=weight,
        flat_share=flat_share,
        flat_value=flat_value,
    )


#: the name the package exports
fit_simulator = fit
