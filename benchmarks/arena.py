"""Benchmark: ranking at arena scale, through ``ranking.stats`` directly (no database).

Synthetic data: ``--systems`` systems (100) with latent qualities spread evenly (true
order known), ``--comparisons`` judgements (1,000,000) of one pair each, drawn
uniformly; ``i`` beats ``j`` with probability ``1 / (1 + exp(-(q_i - q_j)))`` unless
the pair draws (probability ``--draw``, 0.1). Prints

- WMT14 with ``--runs`` runs (200): the numpy path (the oracle) and the compiled kernel
  on the first ``--reference-steps`` steps of every run (5,000), their ratio and whether
  they agree bit for bit, and the default run (a step per comparison: minutes) with
  ``--wmt14-full``;
- the kernel against a *plain compiled loop* on the same steps (:func:`plain_wmt14`: one
  run at a time, ``math.exp`` / ``math.erfc``, the runs split over as many threads as
  the kernel uses; not bit for bit, the floor a straightforward compiled loop sets) and
  the ratio kernel / plain loop (the target: at most 1.2);
- Bradley-Terry with ``--bootstrap`` replicates (1,000), and expected wins likewise;
- each method's Spearman correlation between the recovered and the true order
  (target >= 0.99), and the peak memory of the process.

With ``--end-to-end``, then the same through the product, in fresh processes (wall
time, start-up included): ``--rankings`` (100,000) five-way WMT rankings of the systems
(ranked by latent quality plus Gumbel noise: 1,000,000 pairwise comparisons) imported by
``manage.py import_wmt`` and ranked by ``manage.py rank --runs 200`` on
``$DATABASE_URL`` (a SQLite file in a temporary folder when unset). The target:
import + 200 wmt14 runs in at most 45 s. The campaign is deleted afterwards.

    .venv/bin/python benchmarks/arena.py [--comparisons 1000000] [--runs 200]
        [--reference-steps 5000] [--wmt14-full] [--repeat 3] [--end-to-end]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
# First, even where PYTHONPATH already names it: a script's own folder (benchmarks/,
# which has a ranking.py) comes before PYTHONPATH and would hide the ranking package.
if sys.path[0] != str(REPO):
    sys.path.insert(0, str(REPO))

from benchmarks.imports import write_wmt_csv  # noqa: E402
from benchmarks.rank_command import Yardstick  # noqa: E402
from ranking.stats._methods import rank  # noqa: E402
from ranking.stats._pairwise import Comparisons  # noqa: E402
from ranking.stats._wmt14 import _Task, prepare, wmt14  # noqa: E402


def arena(n_systems: int, n: int, *, draw: float, seed: int) -> tuple[Comparisons, np.ndarray]:
    """``n`` one-pair judgements and the latent qualities (best first: system 0)."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(3.0, -3.0, n_systems)
    a = rng.integers(0, n_systems, n)
    b = (a + rng.integers(1, n_systems, n)) % n_systems  # b != a, uniform
    a_wins = rng.random(n) < 1.0 / (1.0 + np.exp(-(quality[a] - quality[b])))
    drawn = rng.random(n) < draw
    winners = np.where(a_wins, a, b)
    losers = np.where(a_wins, b, a)
    comparisons = Comparisons(
        n_systems=n_systems,
        winners=winners.astype(np.int64),
        losers=losers.astype(np.int64),
        draws=drawn,
        judgement=np.arange(n, dtype=np.int64),
        n_judgements=n,
    )
    return comparisons, quality


def _plain_kernel():  # type: ignore[no-untyped-def]
    """The plain loop, compiled on first use (numba is imported only here)."""
    import math

    from numba import njit

    sqrt2 = math.sqrt(2.0)
    pdf_k = 1.0 / math.sqrt(2.0 * math.pi)

    @njit(cache=True, nogil=True)
    def runs_plain(var0, mu0, uniforms, r0, r1, winners, losers, draws, count, start, params):
        # params: beta, tau, margin; uniforms (runs, steps, 2); results written to var0/mu0
        n = var0.shape[0]
        two_beta2 = 2.0 * params[0] * params[0]
        tau2 = params[1] * params[1]
        margin = params[2]
        weights = np.empty(n)
        var = np.empty(n)
        mu = np.empty(n)
        for r in range(r0, r1):
            for j in range(n):
                var[j] = var0[j, r]
                mu[j] = mu0[j, r]
            for step in range(uniforms.shape[1]):
                a = 0
                for j in range(1, n):
                    if var[j] > var[a]:
                        a = j
                total = 0.0
                for j in range(n):
                    wj = math.exp(-abs(mu[j] - mu[a])) if j != a and count[a, j] > 0 else 0.0
                    total += wj
                    weights[j] = total
                threshold = uniforms[r, step, 0] * total
                b = 0
                for j in range(n):
                    if weights[j] <= threshold:
                        b += 1
                b = min(b, n - 1)
                g = start[a, b] + int(uniforms[r, step, 1] * count[a, b])
                w = winners[g]
                lo = losers[g]
                s1 = var[w] + tau2
                s2 = var[lo] + tau2
                c2 = two_beta2 + s1 + s2
                c = math.sqrt(c2)
                t = (mu[w] - mu[lo]) / c
                eps = margin / c
                if draws[g]:
                    at = abs(t)
                    x1 = eps - at
                    x2 = -eps - at
                    p1 = pdf_k * math.exp(-x1 * x1 / 2.0)
                    p2 = pdf_k * math.exp(-x2 * x2 / 2.0)
                    denom = 0.5 * math.erfc(-x1 / sqrt2) - 0.5 * math.erfc(-x2 / sqrt2)
                    v = (p2 - p1) / denom
                    ww = v * v + (x1 * p1 - x2 * p2) / denom
                    if t < 0.0:
                        v = -v
                else:
                    x = t - eps
                    v = pdf_k * math.exp(-x * x / 2.0) / (0.5 * math.erfc(-x / sqrt2))
                    ww = v * (v + x)
                mu[w] = mu[w] + s1 / c * v
                mu[lo] = mu[lo] - s2 / c * v
                var[w] = s1 * (1.0 - s1 / c2 * ww)
                var[lo] = s2 * (1.0 - s2 / c2 * ww)
            for j in range(n):
                var0[j, r] = var[j]
                mu0[j, r] = mu[j]

    return runs_plain


def plain_wmt14(c: Comparisons, *, seed: int, runs: int, steps: int) -> np.ndarray:
    """WMT14 runs as a plain compiled loop: the reference for the kernel's speed.

    The same procedure, tables and random streams as :func:`wmt14` (two uniforms per
    step from ``rng.spawn(runs)``), one run at a time with ``math.exp`` and
    ``math.erfc`` (exact normal cdf rather than the ``trueskill`` package's
    approximation: the numbers differ slightly, not the work). The runs are split over
    the threads the kernel would use. Returns the runs' means, ``(n, runs)``.
    """
    from concurrent.futures import ThreadPoolExecutor

    from ranking.stats._wmt14_kernel import _threads

    kernel = _plain_kernel()
    rng = np.random.default_rng(seed)
    n_steps, params, used = prepare(c, runs=runs, steps=steps, trueskill={})
    task = _Task(c, params, used, n_steps, rng.spawn(runs))
    uniforms = np.empty((runs, n_steps, 2))
    for r, stream in enumerate(task.streams):
        stream.random(out=uniforms[r])
    var, mu = task.var.copy(), task.mu.copy()
    env = np.array([params.beta, params.tau, params.draw_margin])
    n_threads = _threads(runs)
    bounds = np.linspace(0, runs, n_threads + 1).astype(np.int64)

    def part(i: int) -> None:
        kernel(
            var,
            mu,
            uniforms,
            int(bounds[i]),
            int(bounds[i + 1]),
            task.winners,
            task.losers,
            task.draws,
            task.count,
            task.start,
            env,
        )

    with ThreadPoolExecutor(max_workers=n_threads) as pool:
        list(pool.map(part, range(n_threads)))
    return mu


def spearman(values: np.ndarray, truth: np.ndarray) -> float:
    rv = np.argsort(np.argsort(values)).astype(float)
    rt = np.argsort(np.argsort(truth)).astype(float)
    return float(np.corrcoef(rv, rt)[0, 1])


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(label: str, fn):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    out = fn()
    elapsed = time.perf_counter() - started
    print(f"{label}: {elapsed:.2f} s (peak memory so far {peak_mb():.0f} MB)", flush=True)
    return out, elapsed


#: What 45 s for import + rank means against the yardstick on a quiet machine: the
#: yardstick took 8,448 s there (docs/benchmarks.md), and 8,448 / 45 = 188.
YARDSTICK_RATIO = 188.0


def end_to_end(args: argparse.Namespace, comparisons: Comparisons) -> None:
    """Import + rank through ``manage.py`` (see the module's docstring), timed."""
    quality = np.linspace(3.0, -3.0, args.systems)
    with tempfile.TemporaryDirectory(prefix="humaneval-bench-arena-") as tmp:
        env = dict(os.environ)
        env.pop("CELERY_BROKER_URL", None)
        env.setdefault("DATABASE_URL", f"sqlite:///{tmp}/arena.sqlite3")
        database = env["DATABASE_URL"].split(":", 1)[0]
        path = write_wmt_csv(
            Path(tmp) / "arena.csv",
            rows=args.rankings,
            rng=np.random.default_rng(args.seed),
            quality=quality,
        )
        slug = f"bench-arena-{os.getpid()}"

        def manage(*argv: str) -> tuple[str, float]:
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "manage.py", *argv],
                cwd=REPO,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            return done.stdout, time.perf_counter() - started

        manage("migrate", "--verbosity", "0")
        try:
            _, t_import = manage("import_wmt", str(path), "--campaign", slug)
            out, t_rank = manage(
                "rank",
                slug,
                "--criterion",
                "ranking",
                "--method",
                "wmt14",
                "--runs",
                str(args.runs),
                "--seed",
                str(args.seed),
                "--format",
                "json",
            )
        finally:
            manage(
                "shell",
                "-c",
                "from annotations.models import Campaign; "
                f"Campaign.objects.filter(slug='{slug}').delete()",
            )
    result = json.loads(out)
    value = {row["system"]: row["value"] for row in result["ranking"]}
    found = np.array([value[f"sys{s}"] for s in range(args.systems)])
    total = t_import + t_rank
    # The yardstick, in this run: the same procedure on the same comparisons as a plain
    # Python loop (benchmarks/rank_command.Yardstick), some steps of two runs timed and
    # scaled to 200 full runs. The ratio cancels the machine's speed of the day.
    stick, stick_cpu = Yardstick(comparisons).seconds(
        runs=args.runs, timed_runs=2, seed=args.seed, steps=args.yardstick_steps
    )
    ratio = stick / total
    children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"\nend to end on {database}: {args.rankings:,} five-way rankings of {args.systems} "
        f"systems, {result['comparisons']:,} comparisons\n"
        f"  manage.py import_wmt: {t_import:.1f} s\n"
        f"  manage.py rank --method wmt14 --runs {args.runs}: {t_rank:.1f} s\n"
        f"  import + rank: {total:.1f} s (target <= 45 s: {'met' if total <= 45 else 'MISSED'})\n"
        f"  yardstick (plain Python, {args.runs} runs, scaled): {stick:,.0f} s wall, "
        f"{stick_cpu:,.0f} s CPU; ratio "
        f"{ratio:.0f}x (target >= {YARDSTICK_RATIO:.0f}x: "
        f"{'met' if ratio >= YARDSTICK_RATIO else 'MISSED'})\n"
        f"  Spearman vs truth {spearman(found, quality):.4f} (target >= 0.99); "
        f"peak memory of a command {children_mb:.0f} MB"
    )


def in_process(args: argparse.Namespace, c: Comparisons, quality: np.ndarray) -> None:
    """The measurements through ``ranking.stats`` (no database): see the docstring."""
    # WMT14: kernel vs numpy on the first steps (same seed, same runs), then the kernel in full
    steps = args.reference_steps

    def short(engine: str):  # type: ignore[no-untyped-def]
        return wmt14(
            c, rng=np.random.default_rng(args.seed), runs=args.runs, steps=steps, engine=engine
        )

    short("compiled")  # loads (or compiles) the kernel once, outside the timing
    fast, t_fast = timed(
        f"wmt14 {args.runs} runs x {steps:,} steps, compiled", lambda: short("compiled")
    )
    slow, t_slow = timed(f"wmt14 {args.runs} runs x {steps:,} steps, numpy", lambda: short("numpy"))
    same = np.array_equal(fast.run_values, slow.run_values)
    print(f"  numpy / compiled: {t_slow / t_fast:.1f}x; bit for bit equal: {same}")

    def plain() -> np.ndarray:
        return plain_wmt14(c, seed=args.seed, runs=args.runs, steps=steps)

    plain_mu = plain()  # compiles (or loads) the plain loop, outside the timing
    print(
        "  plain loop vs kernel, Spearman of the systems' mean mu (a sanity check): "
        f"{spearman(plain_mu.mean(axis=1), fast.value):.4f}"
    )
    t_plain = min(
        timed(f"wmt14 {args.runs} runs x {steps:,} steps, plain compiled loop", plain)[1]
        for _ in range(args.repeat)
    )
    t_kernel = min(
        [t_fast]
        + [
            timed(f"wmt14 {args.runs} runs x {steps:,} steps, compiled", lambda: short("compiled"))[
                1
            ]
            for _ in range(args.repeat - 1)
        ]
    )
    print(
        f"  kernel / plain compiled loop (best of {args.repeat}): {t_kernel / t_plain:.2f} "
        "(target <= 1.2)"
    )
    print(
        f"  full default run ({len(c) + 1:,} steps) extrapolated: "
        f"compiled {t_fast * (len(c) + 1) / steps:.0f} s, numpy {t_slow * (len(c) + 1) / steps:.0f} s"
    )
    if args.wmt14_full:
        full, t_full = timed(
            f"wmt14 {args.runs} runs x {len(c) + 1:,} steps (the full default), compiled",
            lambda: wmt14(c, rng=np.random.default_rng(args.seed), runs=args.runs),
        )
        print(f"  Spearman vs truth {spearman(full.value, quality):.4f} ({t_full:.0f} s)")

    for method in ("bradley_terry", "expected_wins"):
        result, _ = timed(
            f"{method} with {args.bootstrap:,} bootstrap replicates",
            lambda method=method: rank(
                method, c, rng=np.random.default_rng(args.seed), runs=args.bootstrap
            ),
        )
        widths = result.rank_hi - result.rank_lo
        print(
            f"  Spearman vs truth {spearman(result.value, quality):.4f} (target >= 0.99); "
            f"clusters {int(result.cluster.max())}; mean rank-range width {widths.mean():.2f}"
        )
    print(f"peak memory: {peak_mb():.0f} MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=100)
    parser.add_argument("--comparisons", type=int, default=1_000_000)
    parser.add_argument("--draw", type=float, default=0.1)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--reference-steps", type=int, default=5000)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wmt14-full", action="store_true")
    parser.add_argument("--end-to-end", action="store_true", help="import + rank via manage.py")
    parser.add_argument("--rankings", type=int, default=100_000, help="five-way, --end-to-end")
    parser.add_argument(
        "--yardstick-steps", type=int, default=20_000, help="steps of the yardstick timed per run"
    )
    parser.add_argument(
        "--only-end-to-end", action="store_true", help="skip the in-process measurements"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="timings of kernel and plain loop (best of)"
    )
    args = parser.parse_args()

    c, quality = timed(
        f"{args.comparisons:,} comparisons of {args.systems} systems generated",
        lambda: arena(args.systems, args.comparisons, draw=args.draw, seed=args.seed),
    )[0]
    print(f"draws: {int(c.draws.sum()):,}")

    if not args.only_end_to_end:
        in_process(args, c, quality)
    if args.end_to_end or args.only_end_to_end:
        end_to_end(args, c)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
