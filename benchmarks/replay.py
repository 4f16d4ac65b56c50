"""Replay: how many judgements the balanced and the adaptive design need.

The released E2E ratings (``../shared/e2e`` or ``$HUMANEVAL_E2E_DIR``; read with the csv
module, never copied) are the *pool* of possible answers: per criterion, every raw
judgement (one worker's RankME scores of 5 systems' outputs for one MR). A simulated
campaign asks for tasks one batch at a time (``--batch`` tasks of k = 5 systems) under a
design policy and answers each requested task from the pool:

- ``balanced``: today's design, ``annotations.core.design.design_tasks`` over enough
  items for the whole pool (every system equally often, pairs spread evenly), taken in
  order;
- ``adaptive``: ``ranking.stats.choose_batch`` on the state of the last refit (its
  values, their spread over the runs or draws as sigma, the rank ranges); before the
  first refit, the balanced allocation;
- ``oracle`` (a bound, not a design): it is *told* the full-data clusters it will be
  compared with and asks only for the systems within ``--oracle-width`` positions (in
  the full-data value order) of a full-data cluster boundary, every other system with
  weight ``--oracle-floor`` (5 distinct systems per task, drawn with those weights).
  No online policy knows more about where the boundaries are, so what the oracle
  needs shows how far any reordering of this pool can go.

**Answering a request.** The requested systems ``S`` (5 distinct) are matched to the
*unused* pooled judgement ``J`` maximising ``|J ∩ S|`` (ties: uniformly at random,
seeded); the judgement is then used whole, as it was given: its 5 real scores (ranks,
10 comparisons), whichever of its systems were requested. Each pooled judgement is used
at most once, so both policies end with the whole pool. A policy thus only changes the
*order* in which real judgements arrive; nothing is synthesised.

**Refit and target.** After each batch, the ranking of the used judgements'
comparisons (in pool order, always with the same generator seed, so the refit on the
whole pool *is* the full-data ranking computed once at the start) by each ``--methods``:
``wmt14`` (TrueSkill with WMT14 sampling, ``--runs`` runs, default 64: a run count the
compiled kernel takes) and ``bt-normal`` (a smooth, low-noise proxy: see
:class:`Fitter`). A policy's
*judgements needed* is the smallest count from which its clusters equal the full-data
clusters at every later refit, to the end (and, relaxed, from which the pair
agreement below stays at least 0.9). Reported per criterion and method: mean ±
standard deviation over seeds (and min-max), and the ratio adaptive / balanced of the
means.
A plot of the cluster agreement (share of system pairs on which "same cluster or not"
matches the full data, averaged over seeds) against judgements is written to
``artifacts/replay.svg``. The choice of one adaptive batch (21 systems) is timed.

    .venv/bin/python benchmarks/replay.py [--seeds 5] [--batch 100] [--runs 64]
        [--methods wmt14 bt-normal] [--min-share 0.3] [--margin 1] [--quick]

Default run about 2 minutes on 2 shared cores; ``--quick`` (1 seed, batches of 200, 32
runs) under 60 s.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

REPO = Path(__file__).resolve().parents[1]
# First, even where PYTHONPATH already names it: a script's own folder (benchmarks/,
# which has a ranking.py) comes before PYTHONPATH and would hide the ranking package.
if sys.path[0] != str(REPO):
    sys.path.insert(0, str(REPO))

from annotations.core.design import design_tasks  # noqa: E402
from ranking.stats import RankingResult, bt_normal, choose_batch, pair_counts  # noqa: E402
from ranking.stats._clusters import value_order  # noqa: E402
from ranking.stats._pairwise import Comparisons, judgements_to_comparisons  # noqa: E402
from ranking.stats._wmt14 import wmt14  # noqa: E402

SCORE_COLUMN = {"quality": "quality", "naturalness": "natur"}
POLICIES = ("balanced", "adaptive", "oracle")
#: the designs compared with the balanced one in the ratios
RATIOS = ("adaptive", "oracle")
IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Pool:
    """The pooled judgements of one criterion: ``systems[j]`` scored ``scores[j]``."""

    labels: list[str]
    systems: IntArray  # (n_pool, k) system indices
    scores: NDArray[np.float64]  # (n_pool, k)

    @property
    def n_systems(self) -> int:
        return len(self.labels)

    def __len__(self) -> int:
        return int(self.systems.shape[0])

    def comparisons(self) -> Comparisons:
        """All pooled judgements as comparisons (judgement index = pool index)."""
        n, k = self.systems.shape
        return judgements_to_comparisons(
            np.repeat(np.arange(n), k),
            self.systems.reshape(-1),
            self.scores.reshape(-1),
            n_systems=self.n_systems,
        )


def load_e2e(folder: Path, criterion: str) -> Pool:
    """One criterion's raw ratings (``quality.csv`` or ``naturalness.csv``) as a pool."""
    column = SCORE_COLUMN[criterion]
    with open(folder / f"{criterion}.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    labels = sorted({row[f"sys{i}"] for row in rows for i in range(1, 6)})
    index = {label: i for i, label in enumerate(labels)}
    systems = np.array([[index[row[f"sys{i}"]] for i in range(1, 6)] for row in rows])
    scores = np.array([[float(row[f"{column}{i}"]) for i in range(1, 6)] for row in rows])
    return Pool(labels=labels, systems=systems.astype(np.int64), scores=scores)


#: Refit methods: the E2E procedure, or a smooth, low-noise proxy (see :class:`Fitter`).
METHODS = ("wmt14", "bt-normal")


class Fitter:
    """Refits on a subset of the pool, comparisons in pool order, always the same seed.

    ``wmt14``: the project's ``wmt14`` (TrueSkill, WMT14 sampling, ``runs`` runs), as the
    E2E report ranked. Its clusters are noisy: the sampling path of every run changes
    as soon as one judgement is added, so two refits on nearly the same data differ as
    two seeds do.

    ``bt-normal``: the Bradley-Terry maximum-likelihood strengths (the project's
    ``bradley_terry_fit``, a draw half a win), their normal approximation (inverse
    Fisher information, comparisons treated as independent, which understates the
    uncertainty of 10 comparisons from one judgement) and rank ranges from 2,000 draws
    of that normal made from one fixed set of standard normal numbers (common random
    numbers), then the same WMT14 cluster rule. Deterministic and smooth in the data:
    it measures what the judgements tell, not the noise of the runs.
    """

    def __init__(self, pool: Pool, *, runs: int, seed: int, method: str = "wmt14") -> None:
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}")
        self.comparisons = pool.comparisons()
        self.n_systems = pool.n_systems
        self.runs = runs
        self.seed = seed
        self.method = method
        self.fits = 0
        self.seconds = 0.0
        self._normals = np.random.default_rng(seed).standard_normal((2000, pool.n_systems))

    def fit(self, used: NDArray[np.bool_]) -> RankingResult | None:
        """The ranking of the used judgements; None while a system has no comparison."""
        subset = self.comparisons.subset(used[self.comparisons.judgement])
        if np.any(subset.per_system() == 0):
            return None
        started = time.perf_counter()
        if self.method == "wmt14":
            result = wmt14(subset, rng=np.random.default_rng(self.seed), runs=self.runs)
        else:
            result = self._bt_normal(subset)
        self.seconds += time.perf_counter() - started
        self.fits += 1
        return result

    def _bt_normal(self, c: Comparisons) -> RankingResult:
        # The adaptive refit's counts and fit (ranking.stats), with this replay's draws.
        wins, draws = pair_counts(c)
        return bt_normal(wins, draws, self._normals)


def uninformed_state(n_systems: int) -> dict[str, Any]:
    """The state before any data: equal values and sigmas, every rank possible."""
    return {
        "value": np.zeros(n_systems),
        "sigma": np.ones(n_systems),
        "rank_lo": np.ones(n_systems, dtype=np.int64),
        "rank_hi": np.full(n_systems, n_systems, dtype=np.int64),
    }


def state_of(result: RankingResult) -> dict[str, Any]:
    return {
        "value": result.value,
        "sigma": result.spread,
        "rank_lo": result.rank_lo,
        "rank_hi": result.rank_hi,
    }


def answer(
    request: IntArray, membership: NDArray[np.float64], unused: NDArray[np.bool_], rng
) -> int:
    """The unused pooled judgement sharing the most systems with ``request`` (ties: random)."""
    overlap = membership[:, request].sum(axis=1)
    overlap[~unused] = -1.0
    best = np.flatnonzero(overlap == overlap.max())
    return int(best[rng.integers(best.shape[0])])


def oracle_focus(full: RankingResult, *, width: int, floor: float) -> NDArray[np.float64]:
    """The oracle's weight per system: 1 within ``width`` positions of a full-data boundary.

    Positions are the full-data value order; a boundary between positions ``p`` and
    ``p + 1`` puts the systems at ``p - width + 1 .. p + width`` in focus. Every other
    system gets ``floor``.
    """
    order = value_order(full.value)
    cluster = full.cluster[order]
    weights = np.full(order.shape[0], float(floor))
    for p in np.flatnonzero(cluster[:-1] != cluster[1:]):
        weights[order[max(0, p - width + 1) : p + width + 1]] = 1.0
    return weights


def oracle_requests(
    focus: NDArray[np.float64], size: int, *, k: int, rng: np.random.Generator
) -> IntArray:
    """``size`` requests of ``k`` distinct systems, drawn with the oracle's weights."""
    p = focus / focus.sum()
    n = focus.shape[0]
    return np.array([rng.choice(n, k, replace=False, p=p) for _ in range(size)], dtype=np.int64)


def pair_agreement(clusters: IntArray, reference: IntArray) -> float:
    """Share of system pairs on which "same cluster or not" agrees with the reference."""
    same = clusters[:, None] == clusters[None, :]
    same_ref = reference[:, None] == reference[None, :]
    upper = np.triu_indices(clusters.shape[0], 1)
    return float(np.mean(same[upper] == same_ref[upper]))


@dataclass
class Trace:
    """One simulated campaign: after each batch, judgements used and cluster agreement."""

    policy: str
    judgements: list[int] = field(default_factory=list)
    equal: list[bool] = field(default_factory=list)
    agreement: list[float] = field(default_factory=list)
    choose_seconds: list[float] = field(default_factory=list)

    def needed(self, agreement: float | None = None) -> int:
        """Judgements from which the clusters equal the reference at every later refit.

        With ``agreement``: from which the pair agreement stays at least that instead.
        """
        ok = self.equal if agreement is None else [a >= agreement for a in self.agreement]
        n = self.judgements[-1]
        for count, good in zip(reversed(self.judgements), reversed(ok), strict=True):
            if not good:
                break
            n = count
        return n


def simulate(
    pool: Pool,
    fitter: Fitter,
    reference: IntArray,
    *,
    policy: str,
    batch: int,
    rng: np.random.Generator,
    k: int = 5,
    min_share: float = 0.3,
    margin: int = 1,
    focus: NDArray[np.float64] | None = None,
) -> Trace:
    """Run one campaign under ``policy`` until the pool is used up (see the module).

    ``focus``: the oracle's weights (:func:`oracle_focus`); needed by ``oracle`` only.
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
    if policy == "oracle" and (focus is None or np.count_nonzero(focus) < k):
        raise ValueError(f"the oracle needs weights with at least {k} systems above 0")
    n_pool, n = len(pool), pool.n_systems
    design_rng, policy_rng, answer_rng = rng.spawn(3)
    membership = np.zeros((n_pool, n))
    np.put_along_axis(membership, pool.systems, 1.0, axis=1)
    unused = np.ones(n_pool, dtype=np.bool_)
    trace = Trace(policy)
    planned: IntArray | None = None
    if policy == "balanced":
        per_item = -(-n // min(k, n))
        items = -(-n_pool // per_item)
        planned = design_tasks(np.ones((items, n), dtype=bool), k=k, rng=design_rng).tasks
    state = uninformed_state(n)
    done = 0
    while done < n_pool:
        size = min(batch, n_pool - done)
        if planned is not None:
            requests = planned[done : done + size]
        elif policy == "oracle":
            assert focus is not None
            requests = oracle_requests(focus, size, k=k, rng=policy_rng)
        else:
            started = time.perf_counter()
            requests = choose_batch(
                n_tasks=size, k=k, rng=policy_rng, min_share=min_share, margin=margin, **state
            ).tasks
            trace.choose_seconds.append(time.perf_counter() - started)
        for request in requests:
            unused[answer(request[request >= 0], membership, unused, answer_rng)] = False
        done += size
        result = fitter.fit(~unused)
        trace.judgements.append(done)
        if result is None:
            trace.equal.append(False)
            trace.agreement.append(float("nan"))
            continue
        state = state_of(result)
        trace.equal.append(bool(np.array_equal(result.cluster, reference)))
        trace.agreement.append(pair_agreement(result.cluster, reference))
    return trace


def plot(curves: dict[tuple[str, str], dict[str, list[Trace]]], path: Path) -> None:
    """Cluster agreement against judgements, per refit method and criterion, over seeds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    methods = list(dict.fromkeys(m for m, _ in curves))
    criteria = list(dict.fromkeys(c for _, c in curves))
    colours = {"balanced": "#1f5fbf", "adaptive": "#c2410c", "oracle": "#6b7280"}
    fig, axes = plt.subplots(
        len(methods),
        len(criteria),
        figsize=(5.2 * len(criteria), 3.6 * len(methods)),
        squeeze=False,
    )
    for (method, criterion), traces in curves.items():
        ax = axes[methods.index(method)][criteria.index(criterion)]
        for policy, runs in traces.items():
            x = np.array(runs[0].judgements)
            agreement = np.nanmean([t.agreement for t in runs], axis=0)
            share_equal = np.mean([t.equal for t in runs], axis=0)
            ax.plot(x, agreement, color=colours[policy], label=f"{policy}: pair agreement")
            ax.plot(x, share_equal, color=colours[policy], linestyle=":", label=f"{policy}: = full")
            ax.axvline(np.mean([t.needed() for t in runs]), color=colours[policy], alpha=0.4)
        ax.set_title(f"E2E {criterion}, refit by {method}")
        ax.set_xlabel("judgements")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
    for row in axes:
        row[0].set_ylabel("agreement with the full-data clusters")
    axes[0][0].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def time_choice(pool: Pool, fitter: Fitter, *, batch: int, repeats: int = 200) -> list[float]:
    """Seconds per :func:`choose_batch` call on the full-data state (``batch`` tasks)."""
    result = fitter.fit(np.ones(len(pool), dtype=np.bool_))
    assert result is not None
    state = state_of(result)
    rng = np.random.default_rng(0)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        choose_batch(n_tasks=batch, k=5, rng=rng, **state)
        times.append(time.perf_counter() - started)
    return times


#: the relaxed target reported beside the exact one: pair agreement at least this
RELAXED = 0.9


def report(label: str, traces: dict[str, list[Trace]], n_pool: int) -> list[str]:
    lines = []
    for target, name in ((None, "clusters equal"), (RELAXED, f"pair agr. >= {RELAXED}")):
        means = {}
        for policy in POLICIES:
            needed = np.array([t.needed(target) for t in traces[policy]])
            means[policy] = float(needed.mean())
            lines.append(
                f"{label:<22} {name:<18} {policy:<9} {needed.mean():6.0f} ± "
                f"{needed.std():4.0f}  [{needed.min()}-{needed.max()}] of {n_pool}"
            )
        for policy in RATIOS:
            ratio = means[policy] / means["balanced"]
            lines.append(f"{label:<22} {name:<18} ratio {policy} / balanced = {ratio:.2f}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=100, help="tasks per batch")
    parser.add_argument("--runs", type=int, default=64, help="WMT14 runs per refit")
    parser.add_argument("--fit-seed", type=int, default=1)
    parser.add_argument("--min-share", type=float, default=0.3)
    parser.add_argument("--margin", type=int, default=1, help="contested gaps' margin")
    parser.add_argument(
        "--oracle-width", type=int, default=3, help="oracle: positions each side of a boundary"
    )
    parser.add_argument(
        "--oracle-floor", type=float, default=0.05, help="oracle: weight of other systems"
    )
    parser.add_argument("--criteria", nargs="+", default=list(SCORE_COLUMN), choices=SCORE_COLUMN)
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--plot", type=Path, default=REPO / "artifacts" / "replay.svg")
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: 1 seed, batches of 200, 32 runs"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.seeds, args.batch, args.runs = 1, 200, 32

    folder = Path(os.environ.get("HUMANEVAL_E2E_DIR", REPO.parent / "shared" / "e2e"))
    if not all((folder / f"{c}.csv").is_file() for c in args.criteria):
        print(f"E2E ratings not found in {folder}: nothing to replay (set HUMANEVAL_E2E_DIR).")
        return 0
    started = time.perf_counter()
    lines = []
    curves: dict[tuple[str, str], dict[str, list[Trace]]] = {}
    choose_times: list[float] = []
    for criterion in args.criteria:
        pool = load_e2e(folder, criterion)
        for method in args.methods:
            fitter = Fitter(pool, runs=args.runs, seed=args.fit_seed, method=method)
            full = fitter.fit(np.ones(len(pool), dtype=np.bool_))
            assert full is not None
            runs = f"{args.runs} runs, " if method == "wmt14" else ""
            print(
                f"{criterion}: {len(pool)} judgements, {pool.n_systems} systems; {method} "
                f"({runs}seed {args.fit_seed}) on all of them: {full.n_clusters} clusters",
                flush=True,
            )
            focus = oracle_focus(full, width=args.oracle_width, floor=args.oracle_floor)
            traces: dict[str, list[Trace]] = {p: [] for p in POLICIES}
            for seed in range(args.seeds):
                for policy in POLICIES:
                    trace = simulate(
                        pool,
                        fitter,
                        full.cluster,
                        policy=policy,
                        batch=args.batch,
                        rng=np.random.default_rng([seed, POLICIES.index(policy)]),
                        min_share=args.min_share,
                        margin=args.margin,
                        focus=focus,
                    )
                    traces[policy].append(trace)
                    choose_times += trace.choose_seconds
                    print(
                        f"  seed {seed} {policy:<9} needs {trace.needed():5d} "
                        f"(pair agreement >= {RELAXED}: {trace.needed(RELAXED):5d})",
                        flush=True,
                    )
            curves[(method, criterion)] = traces
            lines += report(f"{criterion} ({method})", traces, len(pool))
            print(f"  {fitter.fits} refits, {fitter.seconds:.0f} s refitting", flush=True)
            choose_times += time_choice(pool, fitter, batch=args.batch)

    print()
    print(
        f"judgements until the clusters equal the full-data clusters (or the pair agreement "
        f"is >= {RELAXED}) at every later refit; mean ± sd [min-max] over {args.seeds} "
        f"seeds, batches of {args.batch} tasks, wmt14 {args.runs} runs, "
        f"min_share {args.min_share}, margin {args.margin}; oracle width "
        f"{args.oracle_width}, floor {args.oracle_floor}:"
    )
    print("\n".join(lines))
    ms = 1000 * np.array(choose_times)
    print(
        f"choose_batch (21 systems, {args.batch} tasks of 5): median {np.median(ms):.2f} ms, "
        f"99th percentile {np.percentile(ms, 99):.2f} ms, max {ms.max():.2f} ms over "
        f"{ms.size} calls (target < 100 ms)"
    )
    plot(curves, args.plot)
    print(f"plot: {args.plot}   total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
