"""The WMT14 procedure's per-run state as the engines share it: a task (one data set's
runs), and its packing into the flat arrays the compiled kernel reads
(:mod:`~ranking.stats._wmt14` and :mod:`~ranking.stats._wmt14_kernel` both use these)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ._pairwise import Comparisons, pair_index
from ._result import RankingResult, summarise_runs
from ._trueskill import BatchUpdater, TrueSkillParams


@dataclass(eq=False)
class _Task:
    """One comparison set being ranked: its tables, its runs' streams and state."""

    comparisons: Comparisons
    params: TrueSkillParams
    used: dict[str, Any]
    n_steps: int
    streams: list[np.random.Generator]
    done: int = 0
    # comparisons in pair order, and per pair (a, b) their number and first position
    winners: NDArray[np.int64] = field(init=False)
    losers: NDArray[np.int64] = field(init=False)
    draws: NDArray[np.bool_] = field(init=False)
    count: NDArray[np.int64] = field(init=False)
    start: NDArray[np.int64] = field(init=False)
    # the state of the runs between phases, shape (n_systems, runs)
    var: NDArray[np.float64] = field(init=False)
    mu: NDArray[np.float64] = field(init=False)

    def __post_init__(self) -> None:
        c = self.comparisons
        index = pair_index(c)
        self.winners = c.winners[index.order]
        self.losers = c.losers[index.order]
        self.draws = c.draws[index.order]
        self.count = index.count.astype(np.int64)
        self.start = index.start.astype(np.int64)
        shape = (c.n_systems, len(self.streams))
        self.var = np.full(shape, float(self.params.sigma) ** 2)
        self.mu = np.full(shape, float(self.params.mu))

    @property
    def n(self) -> int:
        return self.comparisons.n_systems

    @property
    def runs(self) -> int:
        return len(self.streams)

    @property
    def complete(self) -> bool:
        """Whether every pair of systems has a comparison."""
        return bool((self.count > 0).sum() == self.n * (self.n - 1))

    def result(self, confidence: float, lanes: slice = slice(None)) -> RankingResult:
        """The result of the runs in ``lanes`` (all by default), laid out as a task of
        just those runs lays them out (so its sums are the same bit for bit)."""
        return summarise_runs(
            method="wmt14",
            run_values=np.ascontiguousarray(self.mu[:, lanes]).T,
            confidence=confidence,
            comparisons=self.comparisons.per_system(),
            n_comparisons=len(self.comparisons),
            params=self.used,
        )


class Packed(NamedTuple):
    """The runs of several tasks side by side, as :func:`_advance` and the compiled kernel
    (``_wmt14_kernel.advance``) read them: systems padded to the largest ``n`` (phantoms
    at ``-inf`` variance and ``+inf`` mean), one lane per run."""

    n: int
    runs: list[int]
    n_lanes: int
    lane_task: NDArray[np.int64]  # (lanes,) the task of each lane
    state: NDArray[np.float64]  # (2, n, lanes): variances, then means
    games: NDArray[np.int64]  # (3, comparisons): winner, loser, kind (2 task + draw)
    kind_table: NDArray[np.float64]  # (5, 2 tasks): BatchUpdater's game columns per kind
    pair_count: NDArray[np.int64]  # (tasks, n, n): comparisons of each pair
    pair_start: NDArray[np.int64]  # (tasks, n, n): where they start in ``games``
    mask_table: NDArray[np.float64]  # (tasks n, n): 1 where a pair has comparisons
    complete: bool
    beta: NDArray[np.float64]  # (lanes,)
    tau: NDArray[np.float64]
    margin: NDArray[np.float64]


def pack(tasks: Sequence[_Task]) -> Packed:
    """Lay ``tasks`` out side by side (see :class:`Packed`)."""
    n = max(t.n for t in tasks)
    runs = [t.runs for t in tasks]
    n_lanes = sum(runs)
    state = np.empty((2, n, n_lanes))
    state[0] = -np.inf
    state[1] = np.inf
    game_parts, kinds = [], []
    pair_count = np.zeros((len(tasks), n, n), dtype=np.int64)
    pair_start = np.zeros((len(tasks), n, n), dtype=np.int64)
    mask = np.zeros((len(tasks), n, n))
    first = offset = 0
    for g, t in enumerate(tasks):
        state[0, : t.n, first : first + t.runs] = t.var
        state[1, : t.n, first : first + t.runs] = t.mu
        game_parts.append(np.stack([t.winners, t.losers, 2 * g + t.draws.astype(np.int64)]))
        kinds.append(BatchUpdater.game_columns([0.0, 1.0], t.params.draw_margin))
        pair_count[g, : t.n, : t.n] = t.count
        pair_start[g, : t.n, : t.n] = t.start + offset
        mask[g, : t.n, : t.n] = t.count > 0
        first += t.runs
        offset += len(t.winners)
    return Packed(
        n=n,
        runs=runs,
        n_lanes=n_lanes,
        lane_task=np.repeat(np.arange(len(tasks)), runs).astype(np.int64),
        state=state,
        games=np.ascontiguousarray(np.concatenate(game_parts, axis=1).astype(np.int64)),
        kind_table=np.ascontiguousarray(np.concatenate(kinds, axis=1)),
        pair_count=pair_count,
        pair_start=pair_start,
        mask_table=mask.reshape(-1, n),
        complete=all(t.complete for t in tasks),
        beta=np.repeat([t.params.beta for t in tasks], runs),
        tau=np.repeat([t.params.tau for t in tasks], runs),
        margin=np.repeat([t.params.draw_margin for t in tasks], runs),
    )


def unpack(tasks: Sequence[_Task], state: NDArray[np.float64], n_steps: int) -> None:
    """Copy each task's runs back out of the side-by-side ``state`` (see :func:`pack`)."""
    first = 0
    for t in tasks:
        t.var = state[0, : t.n, first : first + t.runs].copy()
        t.mu = state[1, : t.n, first : first + t.runs].copy()
        t.done += n_steps
        first += t.runs
