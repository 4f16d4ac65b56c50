"""Task design: which systems' outputs of an item are judged together.

Pure numerical code (numpy only, no Django). Systems and items are integer indices;
the service in ``annotations/services/tasks.py`` keeps the id-to-index maps.

A design shows each item's outputs in tasks of ``k`` distinct systems. Two properties
matter for rankings built from relative judgements (RankME, TrueSkill): every system is
judged equally often, and every pair of systems meets in a task about equally often
(pairwise comparisons are what the ranking learns from; Sakaguchi, Post & Van Durme 2014).

Construction (per item, in item order):

1. *Quotas.* With ``T`` tasks of ``k_eff = min(k, n_i)`` slots over the item's ``n_i``
   systems, there are ``T * k_eff`` slots: every system gets ``floor(T * k_eff / n_i)``
   of them and the remaining ``T * k_eff mod n_i`` go to the systems judged least often
   so far in the whole design (among equally judged systems, greedily to those that
   have met each other least, then at random). This keeps the per-system counts
   of the whole design within one of each other (when every system has an output for
   every item). By default ``T = ceil(n_i / k_eff)``: every output of every item is
   judged, and the last task is filled with systems that balance the counts.
2. *Tasks.* The quotas are dealt into ``T`` tasks of distinct systems, greedily: a task
   takes first the systems whose remaining quota equals the number of tasks left (so a
   system never has to appear twice in one task), then, one at a time, the system that
   has met the task's members least often so far (the smallest sum of pair
   co-occurrence counts, which is the greedy step for the sum of squared pair counts),
   then the one with the largest remaining quota, then a random one.
3. *Restarts.* Steps 1 and 2 are run ``restarts`` times with different random tie breaking and
   the run adding the least to the sum of squared pair counts is kept.

The pair counts this reaches are reported, not guaranteed: see ``balance_of``. The
tests compare them with a random design of the same size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray


@dataclass(frozen=True)
class Design:
    """Tasks of a design.

    Attributes
    ----------
    n_systems : int
    tasks : ndarray of int, shape (n_tasks, width)
        System indices of each task, padded with -1 when an item has fewer systems
        than the widest task.
    task_item : ndarray of int, shape (n_tasks,)
        The item of each task; tasks of one item are consecutive, items in order.
    skipped_items : ndarray of int
        Items with fewer than two systems (nothing to compare); they have no task. With
        ``k = 1`` (PlainME: one output per task, scored against the standard alone) an
        item needs one system.
    """

    n_systems: int
    tasks: NDArray[np.int64]
    task_item: NDArray[np.int64]
    skipped_items: NDArray[np.int64]

    @property
    def n_tasks(self) -> int:
        return int(self.tasks.shape[0])

    def members(self, task: int) -> NDArray[np.int64]:
        """The systems of one task (without padding)."""
        row = self.tasks[task]
        return row[row >= 0]


@dataclass(frozen=True)
class Balance:
    """How evenly a design spreads systems and pairs of systems.

    ``counts`` is the number of tasks of each system; ``pairs`` the symmetric matrix of
    the number of tasks shared by each pair (zero diagonal). Pair statistics are over
    the pairs ``i < j``.
    """

    counts: NDArray[np.int64]
    pairs: NDArray[np.int64]
    count_min: int
    count_max: int
    pair_min: int
    pair_max: int
    pair_mean: float
    pair_std: float


def default_tasks_per_item(n_systems: int, k: int) -> int:
    """Tasks needed to judge every system's output of an item once: ceil(n / min(k, n))."""
    k_eff = min(k, n_systems)
    return -(-n_systems // k_eff)


def item_task_counts(
    available: ArrayLike, *, k: int, tasks_per_item: int | None = None
) -> NDArray[np.int64]:
    """The number of tasks ``design_tasks`` makes for each item, without making them.

    An item with fewer systems than a task needs (two, or one when ``k = 1``) gets none;
    every other item ``tasks_per_item`` or ``ceil(n_i / min(k, n_i))``. The plan shown
    before building reads this, so that it equals what building produces.
    """
    mask = np.asarray(available, dtype=bool)
    n = mask.sum(axis=1).astype(np.int64)
    fewest = min(k, 2)
    per_item = (
        np.full(n.shape, tasks_per_item, dtype=np.int64)
        if tasks_per_item
        else -(-n // np.maximum(np.minimum(k, n), 1))
    )
    return np.where(n >= fewest, per_item, 0).astype(np.int64)


def design_tasks(
    available: ArrayLike,
    *,
    k: int,
    rng: np.random.Generator,
    tasks_per_item: int | None = None,
    restarts: int = 3,
) -> Design:
    """Build a balanced design.

    Parameters
    ----------
    available : array_like of bool, shape (n_items, n_systems)
        Whether system ``s`` has an output for item ``i``.
    k : int
        Systems per task (``Campaign.outputs_per_task``), at least 1. An item with fewer
        systems gets tasks of all of them. ``k = 1`` is PlainME: each task holds one
        output, the quotas still spread the tasks evenly over the systems.
    rng : numpy.random.Generator
        The only source of randomness (tie breaking); the same state gives the same
        design.
    tasks_per_item : int, optional
        Tasks per item; default ``ceil(n_i / min(k, n_i))`` (every output judged).
        Fewer tasks judge a balanced subset of the systems on each item; more repeat
        systems on an item (never twice in one task).
    restarts : int
        Greedy runs per item; the best is kept.

    Returns
    -------
    Design
    """
    mask = np.asarray(available, dtype=bool)
    if mask.ndim != 2:
        raise ValueError("available must be a 2-d (items x systems) array")
    if k < 1:
        raise ValueError("k must be at least 1")
    if tasks_per_item is not None and tasks_per_item < 1:
        raise ValueError("tasks_per_item must be at least 1")
    restarts = max(1, restarts)
    # Outputs to compare need two systems; a single output (PlainME) needs one.
    fewest = min(k, 2)
    n_items, n_systems = mask.shape
    counts = np.zeros(n_systems, dtype=np.int64)
    pairs = np.zeros((n_systems, n_systems), dtype=np.int64)
    width = min(k, int(mask.sum(axis=1).max(initial=0)))
    rows: list[NDArray[np.int64]] = []
    task_item: list[int] = []
    skipped: list[int] = []

    for item in range(n_items):
        systems = np.flatnonzero(mask[item])
        n_i = systems.size
        if n_i < fewest:
            skipped.append(item)
            continue
        k_i = min(k, n_i)
        n_tasks = tasks_per_item or default_tasks_per_item(n_i, k_i)
        local_pairs = pairs[np.ix_(systems, systems)]
        best: list[NDArray[np.int64]] | None = None
        best_cost = np.inf
        for _ in range(restarts):
            quota = _quotas(counts[systems], n_tasks * k_i, local_pairs, rng)
            tasks, cost = _deal(quota, n_tasks, k_i, local_pairs, rng)
            if cost < best_cost:
                best, best_cost = tasks, cost
        assert best is not None
        for local in best:
            members = systems[local]
            counts[members] += 1
            pairs[members[:, None], members] += 1
            row = np.full(width, -1, dtype=np.int64)
            row[: members.size] = rng.permutation(members)
            rows.append(row)
            task_item.append(item)
    np.fill_diagonal(pairs, 0)
    return Design(
        n_systems=n_systems,
        tasks=np.array(rows, dtype=np.int64).reshape(len(rows), width),
        task_item=np.array(task_item, dtype=np.int64),
        skipped_items=np.array(skipped, dtype=np.int64),
    )


def _quotas(
    counts: NDArray[np.int64],
    slots: int,
    pairs: NDArray[np.int64],
    rng: np.random.Generator,
) -> NDArray[np.int64]:
    """Slots of one item per system: equal shares, the rest to the least-judged systems.

    Among systems judged equally often, the extra slots go greedily to the systems
    that have met each other least (with one task per item, they *are* the task).
    """
    n = counts.size
    base, extra = divmod(slots, n)
    quota = np.full(n, base, dtype=np.int64)
    if not extra:
        return quota
    level = counts[np.argsort(counts, kind="stable")[extra - 1]]
    sure = counts < level
    quota[sure] += 1
    free = extra - int(sure.sum())
    taken = sure.copy()
    met = pairs[:, sure].sum(axis=1)
    noise = rng.random(n)
    for _ in range(free):
        key = met + noise
        key[taken | (counts != level)] = np.inf
        pick = int(np.argmin(key))
        taken[pick] = True
        quota[pick] += 1
        met += pairs[pick]
    return quota


def _deal(
    quota: NDArray[np.int64],
    n_tasks: int,
    k: int,
    pairs: NDArray[np.int64],
    rng: np.random.Generator,
) -> tuple[list[NDArray[np.int64]], float]:
    """Deal an item's quotas into tasks of k distinct (local) systems, greedily.

    Returns the tasks and the increase of the sum of squared pair counts they cause.
    """
    n = quota.size
    remaining = quota.copy()
    pairs = pairs.copy()
    tasks: list[NDArray[np.int64]] = []
    cost = 0
    # Keys are whole numbers (pair cost, then quota left) plus a random fraction for ties.
    scale = n_tasks + 2
    for t in range(n_tasks):
        left = n_tasks - t
        chosen: list[int] = []
        blocked = remaining <= 0
        met = np.zeros(n, dtype=np.int64)
        noise = rng.random(n)
        forced = np.flatnonzero(remaining == left).tolist()
        while len(chosen) < k:
            if forced:
                pick = forced.pop()
            else:
                key = met * scale + (n_tasks - remaining) + noise
                key[blocked] = np.inf
                pick = int(np.argmin(key))
            # Adding a system raises each of its pairs with the members by one: the sum
            # of squared pair counts grows by sum(2p + 1).
            cost += 2 * int(met[pick]) + len(chosen)
            chosen.append(pick)
            blocked[pick] = True
            met += pairs[pick]
        members = np.array(chosen, dtype=np.int64)
        pairs[members[:, None], members] += 1
        remaining[members] -= 1
        tasks.append(np.sort(members))
    return tasks, float(cost)


def balance_of(design: Design) -> Balance:
    """System and pair counts of a design, with their spread."""
    n = design.n_systems
    counts = np.zeros(n, dtype=np.int64)
    pairs = np.zeros((n, n), dtype=np.int64)
    for row in design.tasks:
        members = row[row >= 0]
        counts[members] += 1
        pairs[np.ix_(members, members)] += 1
    np.fill_diagonal(pairs, 0)
    upper = pairs[np.triu_indices(n, 1)]
    if upper.size == 0:
        upper = np.zeros(1, dtype=np.int64)
    return Balance(
        counts=counts,
        pairs=pairs,
        count_min=int(counts.min()) if n else 0,
        count_max=int(counts.max(initial=0)),
        pair_min=int(upper.min()),
        pair_max=int(upper.max()),
        pair_mean=float(upper.mean()),
        pair_std=float(upper.std()),
    )
