"""Benchmark of the WMT14 TrueSkill ranking on the E2E NLG Challenge ratings (pure stats).

Loads quality.csv and naturalness.csv (CrowdFlower exports of the E2E human evaluation)
with the csv module, times the WMT14 method (``ranking.stats._wmt14.wmt14``, behind
:func:`ranking.stats.compute`) with 200 runs on both criteria (one after the other with
each engine, compiled and numpy, checking they agree bit for bit; in two processes; and
side by side in one pass with ``wmt14_many``), times the
plain reference loop (``tests/ranking/stats/reference.py``: ``wmt14_reference``, over the
``trueskill`` package) over a few runs and
extrapolates it to 200 runs, and prints both times, their ratio and the peak memory.
``--table`` prints our Table 11 beside the published one.

    python benchmarks/ranking_stats.py                 # the benchmark
    python benchmarks/ranking_stats.py --table         # Table 11, published vs ours
    python benchmarks/ranking_stats.py --settle        # clusters with more runs / seeds

The data folder defaults to ``<repo>/../shared/e2e``; ``HUMANEVAL_E2E_DIR`` overrides it.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
# First, even where PYTHONPATH already names it: a script's own folder (benchmarks/,
# which has a ranking.py) comes before PYTHONPATH and would hide the ranking package.
if sys.path[0] != str(REPO):
    sys.path.insert(0, str(REPO))

# The method's internals, measured directly (the project uses ranking.stats.compute).
from ranking.stats import RankingResult  # noqa: E402
from ranking.stats._pairwise import Comparisons, judgements_to_comparisons  # noqa: E402
from ranking.stats._stability import cluster_stability  # noqa: E402
from ranking.stats._wmt14 import wmt14, wmt14_many  # noqa: E402
from tests.ranking.stats.reference import wmt14_reference  # noqa: E402

CRITERIA = ("quality", "naturalness")
SCORE_PREFIX = {"quality": "quality", "naturalness": "natur"}


def e2e_dir() -> Path:
    """The E2E data folder: ``$HUMANEVAL_E2E_DIR`` or ``<repo>/../shared/e2e``."""
    return Path(os.environ.get("HUMANEVAL_E2E_DIR", REPO.parent / "shared" / "e2e"))


@dataclass(frozen=True)
class E2ECriterion:
    """One criterion's judgements as arrays, with the system labels."""

    criterion: str
    labels: list[str]
    comparisons: Comparisons
    n_rows: int


def read_e2e_rows(path: Path, criterion: str) -> list[dict[str, str]]:
    """The rows of ``<criterion>.csv`` (text fields hold quoted newlines)."""
    with open(path / f"{criterion}.csv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def load_e2e_comparisons(
    path: Path, criterion: str, *, merge_duplicates: bool = False
) -> E2ECriterion:
    """One criterion of the E2E ratings as pairwise comparisons.

    Every CSV row is one judgement of five outputs (``sys1..sys5`` with scores
    ``quality1..5`` or ``natur1..5``); systems are indexed in sorted label order.
    With ``merge_duplicates`` the outputs marked as identical (``dupl_ref*``) share a
    slot, so they are not compared with each other (an alternative reading; the
    published procedure compares all pairs).
    """
    if criterion not in SCORE_PREFIX:
        raise ValueError(f"criterion must be one of {CRITERIA}")
    rows = read_e2e_rows(path, criterion)
    prefix = SCORE_PREFIX[criterion]
    labels = sorted({row[f"sys{k}"] for row in rows for k in range(1, 6)})
    index = {label: i for i, label in enumerate(labels)}
    judgement, system, score, slot = [], [], [], []
    for i, row in enumerate(rows):
        slots = list(range(5))
        if merge_duplicates:
            for k in range(5):
                twins = row[f"dupl_ref{k + 1}"].split(".")[0]
                for digit in twins:
                    j = int(digit) - 1
                    low = min(slots[k], slots[j])
                    slots = [low if s in (slots[k], slots[j]) else s for s in slots]
        for k in range(5):
            judgement.append(i)
            system.append(index[row[f"sys{k + 1}"]])
            score.append(float(row[f"{prefix}{k + 1}"]))
            slot.append(slots[k])
    comparisons = judgements_to_comparisons(
        np.array(judgement),
        np.array(system),
        np.array(score),
        n_systems=len(labels),
        slot=np.array(slot),
    )
    return E2ECriterion(
        criterion=criterion, labels=labels, comparisons=comparisons, n_rows=len(rows)
    )


def load_table11(path: Path) -> dict[str, list[dict[str, object]]]:
    """The published Table 11 (``table11.json``)."""
    with open(path / "table11.json", encoding="utf-8") as fh:
        data: dict[str, list[dict[str, object]]] = json.load(fh)
    return data


def _run_wmt14(args: tuple[Comparisons, int, int]) -> tuple[float, RankingResult]:
    comparisons, runs, seed = args
    started = time.perf_counter()
    result = wmt14(comparisons, rng=np.random.default_rng(seed), runs=runs)
    return time.perf_counter() - started, result


def peak_rss_mb() -> float:
    """Peak resident memory of this process and its finished children, in MB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024.0


def benchmark(
    data: dict[str, Comparisons], *, runs: int = 200, reference_runs: int = 2, seed: int = 1
) -> None:
    """Time wmt14 (every criterion: sequential, two processes, side by side) vs the reference.

    Wall times depend on what else the machine runs; CPU times (``time.process_time``)
    are printed beside them because they do not.
    """
    criteria = list(data)
    for c in criteria:
        d = data[c]
        print(f"{c}: {d.n_judgements} judgements, {len(d)} comparisons, {d.n_systems} systems")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average before: {load:.2f} on {os.cpu_count()} cores")

    started = time.perf_counter()
    from ranking.stats._wmt14 import warm

    warm()  # numba's import and the kernel's load from its on-disk cache, timed apart
    print(f"compiled kernel loaded in {time.perf_counter() - started:.2f} s")
    compiled: dict[str, np.ndarray] = {}
    totals: dict[str, tuple[float, float]] = {}
    for engine in ("compiled", "numpy"):
        wall = cpu = 0.0
        for c in criteria:
            w0, c0 = time.perf_counter(), time.process_time()
            result = wmt14(data[c], rng=np.random.default_rng(seed), runs=runs, engine=engine)
            w1, c1 = time.perf_counter() - w0, time.process_time() - c0
            wall, cpu = wall + w1, cpu + c1
            steps = len(data[c]) + 1
            print(
                f"wmt14 ({engine}), {c}, {runs} runs: {w1:.2f} s wall, {c1:.2f} s CPU "
                f"({c1 / steps * 1e6:.0f} us CPU per step of all runs)"
            )
            if engine == "compiled":
                compiled[c] = result.run_values
            else:
                same = np.array_equal(compiled[c], result.run_values)
                print(f"  compiled == numpy, bit for bit: {same}")
        print(f"wmt14 ({engine}), both criteria, one process: {wall:.2f} s wall, {cpu:.2f} s CPU")
        totals[engine] = (wall, cpu)
    print(f"numpy / compiled: {totals['numpy'][0] / totals['compiled'][0]:.1f}x wall")
    wall, cpu = totals["compiled"]  # the default engine, for the speed-ups below

    w0, c0 = time.perf_counter(), time.process_time()
    wmt14_many(
        [data[c] for c in criteria],
        rngs=[np.random.default_rng(seed) for _ in criteria],
        runs=runs,
    )
    many_wall, many_cpu = time.perf_counter() - w0, time.process_time() - c0
    print(
        f"vectorised wmt14_many, both criteria side by side, one process: {many_wall:.2f} s "
        f"wall, {many_cpu:.2f} s CPU"
    )

    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(pool.map(_run_wmt14, [(data[c], runs, seed) for c in criteria]))
    parallel = time.perf_counter() - started
    print(f"vectorised wmt14, both criteria, two processes: {parallel:.2f} s wall (incl. start-up)")

    ref_wall = ref_cpu = 0.0
    for c in criteria:
        w0, c0 = time.perf_counter(), time.process_time()
        wmt14_reference(data[c], rng=np.random.default_rng(seed), runs=reference_runs)
        w1, c1 = time.perf_counter() - w0, time.process_time() - c0
        ref_wall += w1 / reference_runs * runs
        ref_cpu += c1 / reference_runs * runs
        print(
            f"reference loop, {c}: {w1 / reference_runs:.1f} s wall, "
            f"{c1 / reference_runs:.1f} s CPU per run ({reference_runs} runs timed)"
        )
    print(
        f"reference, both criteria, {runs} runs (extrapolated): {ref_wall:.0f} s wall, "
        f"{ref_cpu:.0f} s CPU"
    )
    print(
        f"speed-up (compiled), one process: {ref_wall / wall:.0f}x wall, {ref_cpu / cpu:.0f}x CPU"
    )
    print(
        f"speed-up, one process side by side: {ref_wall / many_wall:.0f}x wall, "
        f"{ref_cpu / many_cpu:.0f}x CPU"
    )
    print(f"speed-up, two processes: {ref_wall / parallel:.0f}x wall")
    print(f"peak memory (max RSS of this process and the workers): {peak_rss_mb():.0f} MB")


def table(path: Path, *, runs: int = 200, seed: int = 1) -> str:
    """Markdown tables of the published Table 11 beside our WMT14 reproduction."""
    published = load_table11(path)
    lines = []
    for c in CRITERIA:
        d = load_e2e_comparisons(path, c)
        result = wmt14(d.comparisons, rng=np.random.default_rng(seed), runs=runs)
        ours = {d.labels[i]: i for i in range(len(d.labels))}
        lines.append(f"\n### {c.capitalize()} ({runs} runs, seed {seed})\n")
        lines.append(
            "| system | published cl. | published value | published range "
            "| our cl. | our value | our range | Δ value |"
        )
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        for row in published[c]:
            i = ours[str(row["system"])]
            value = float(result.value[i])
            lines.append(
                f"| {row['system']} | {row['cluster']} | {float(row['trueskill']):.3f} "  # type: ignore[arg-type]
                f"| {row['rank_lo']}-{row['rank_hi']} | {result.cluster[i]} | {value:.3f} "
                f"| {result.rank_lo[i]}-{result.rank_hi[i]} "
                f"| {value - float(row['trueskill']):+.3f} |"  # type: ignore[arg-type]
            )
    return "\n".join(lines)


def cluster_shape(result: RankingResult, labels: Sequence[str]) -> str:
    """Clusters as ``a b / c d e / ...`` in value order."""
    order = result.order
    parts: list[list[str]] = []
    for i in order:
        if not parts or result.cluster[i] != result.cluster[order[0]] + len(parts) - 1:
            parts.append([])
        parts[-1].append(labels[i])
    return " / ".join(" ".join(p) for p in parts)


def settle(
    path: Path, *, runs: Sequence[int] = (200, 1000, 2000), seeds: Sequence[int] = (1, 2, 3)
) -> str:
    """How the clusters change with the number of runs and the seed (markdown)."""
    lines = []
    for c in CRITERIA:
        d = load_e2e_comparisons(path, c)
        lines.append(f"\n### {c.capitalize()}\n")
        lines.append("| runs | seed | cluster sizes | clusters (value order) | stability check |")
        lines.append("|---:|---:|---|---|---|")
        for r in runs:
            for seed in seeds:
                result = wmt14(d.comparisons, rng=np.random.default_rng(seed), runs=r)
                sizes = np.bincount(result.cluster)[1:]
                check = cluster_stability(result, rng=np.random.default_rng(0))
                if check.fragile.size == 0:
                    verdict = "settled"
                elif check.suggested_runs is None:
                    why = "no estimate" if check.runs_unknown else "beyond the cap"
                    verdict = f"{check.fragile.size} fragile, {why}"
                else:
                    verdict = f"{check.fragile.size} fragile, ~{check.suggested_runs:,} runs"
                lines.append(
                    f"| {r} | {seed} | {'-'.join(str(x) for x in sizes)} "
                    f"| {cluster_shape(result, d.labels)} | {verdict} |"
                )
                print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=None, help="the E2E data folder")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--reference-runs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table", action="store_true", help="print Table 11, published vs ours")
    parser.add_argument(
        "--settle", action="store_true", help="clusters with 200/1000/2000 runs, seeds 1-3"
    )
    args = parser.parse_args(argv)
    path = args.data or e2e_dir()
    if not (path / "quality.csv").is_file():
        print(f"E2E data not found in {path} (set HUMANEVAL_E2E_DIR)", file=sys.stderr)
        return 2
    if args.table:
        print(table(path, runs=args.runs, seed=args.seed))
        return 0
    if args.settle:
        print(settle(path))
        return 0
    data = {c: load_e2e_comparisons(path, c).comparisons for c in CRITERIA}
    benchmark(data, runs=args.runs, reference_runs=args.reference_runs, seed=args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
