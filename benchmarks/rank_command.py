"""Benchmark: ``manage.py rank`` of E2E quality as a user runs it, against a yardstick.

Imports ``../shared/e2e`` (or ``$HUMANEVAL_E2E_DIR``) into a throwaway SQLite database
with ``manage.py import_e2e``, then, round after round, alternately:

- runs ``manage.py rank e2e --criterion quality --method wmt14 --runs 200 --seed 1`` in
  a fresh process and takes its wall time (start-up, Django's set-up, the database read,
  the compiled kernel's load, the 200 runs and the table: what the user waits for);
- times the *yardstick* in this process: the same WMT14 procedure on the same
  comparisons written as a plain Python loop with TrueSkill's one-on-one update in closed
  form (``math.erf``; :class:`Yardstick`), over ``--yardstick-runs`` runs,
  extrapolated to 200.

The ratio yardstick / command is what the machine's speed of the day cancels out of; it
is printed per round with the medians. Targets: the command within 1.5 s wall and at
least 82x the yardstick (82x is what 1.5 s means against the yardstick measured on a
quiet machine, 122-125 s: docs/benchmarks.md).

    .venv/bin/python benchmarks/rank_command.py [--rounds 5] [--yardstick-runs 2]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ranking.stats._pairwise import Comparisons
    from ranking.stats._trueskill import TrueSkillParams

REPO = Path(__file__).resolve().parents[1]
# First, even where PYTHONPATH already names it: a script's own folder (benchmarks/,
# which has a ranking.py) comes before PYTHONPATH and would hide the ranking package.
if sys.path[0] != str(REPO):
    sys.path.insert(0, str(REPO))

COMMAND = ["rank", "e2e", "--criterion", "quality", "--method", "wmt14", "--runs", "200"]
TARGET_SECONDS = 1.5
TARGET_RATIO = 82.0


def _pdf(x: float) -> float:
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi)


def _cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _vw(t: float, eps: float, drawn: bool) -> tuple[float, float]:
    """TrueSkill's v and w for a win (``t`` = mean difference over c) or a draw."""
    if not drawn:
        x = t - eps
        denom = _cdf(x)
        v = _pdf(x) / denom if denom else -x
        return v, v * (v + x)
    a, b = eps - abs(t), -eps - abs(t)
    denom = _cdf(a) - _cdf(b)
    v = (_pdf(b) - _pdf(a)) / denom if denom else a
    w = v * v + (a * _pdf(a) - b * _pdf(b)) / denom if denom else 1.0
    return (-v if t < 0 else v), w


class Yardstick:
    """The WMT14 procedure as a plain Python loop: the opponent chosen as WMT14 does, then
    TrueSkill's one-on-one update in closed form. Built once per data set (the pairs'
    comparisons listed), then run as often as timed."""

    def __init__(self, comparisons: Comparisons) -> None:
        self.comparisons = comparisons
        self.n = comparisons.n_systems
        self.winners = comparisons.winners.tolist()
        self.losers = comparisons.losers.tolist()
        self.draws = comparisons.draws.tolist()
        by_pair: defaultdict[tuple[int, int], list[int]] = defaultdict(list)
        for c, (w, lo) in enumerate(zip(self.winners, self.losers, strict=True)):
            by_pair[(min(w, lo), max(w, lo))].append(c)
        self.by_pair = dict(by_pair)

    def run(
        self, params: TrueSkillParams, n_steps: int, stream: np.random.Generator
    ) -> list[float]:
        """``n_steps`` steps of one run; returns the systems' final means."""
        n, winners, losers, draws, by_pair = (
            self.n,
            self.winners,
            self.losers,
            self.draws,
            self.by_pair,
        )
        mu = [params.mu] * n
        sigma = [params.sigma] * n
        tau2, beta2 = params.tau**2, params.beta**2
        for _ in range(n_steps):
            u_opponent, u_comparison = stream.random(2)
            a = max(range(n), key=sigma.__getitem__)
            candidates = [j for j in range(n) if j != a and (min(a, j), max(a, j)) in by_pair]
            weights = [math.exp(-abs(mu[a] - mu[j])) for j in candidates]
            threshold, cumulative, b = u_opponent * sum(weights), 0.0, candidates[-1]
            for j, weight in zip(candidates, weights, strict=True):
                cumulative += weight
                if threshold < cumulative:
                    b = j
                    break
            pool = by_pair[(min(a, b), max(a, b))]
            c = pool[int(u_comparison * len(pool))]
            w, lo = winners[c], losers[c]
            var_w, var_l = sigma[w] ** 2 + tau2, sigma[lo] ** 2 + tau2
            c2 = 2 * beta2 + var_w + var_l
            root = math.sqrt(c2)
            v, ww = _vw((mu[w] - mu[lo]) / root, params.draw_margin / root, draws[c])
            mu[w] += var_w / root * v
            mu[lo] -= var_l / root * v
            sigma[w] = math.sqrt(var_w * (1 - var_w / c2 * ww))
            sigma[lo] = math.sqrt(var_l * (1 - var_l / c2 * ww))
        return mu

    def seconds(
        self, *, runs: int, timed_runs: int, seed: int, steps: int | None = None
    ) -> tuple[float, float]:
        """Wall and CPU seconds of ``runs`` full runs, from ``timed_runs`` runs of
        ``steps`` steps each (all of a run's steps when None), scaled to the full run's
        steps. The CPU seconds are about the wall seconds of a quiet machine."""
        from ranking.stats._wmt14 import prepare

        comparisons_steps, params, _ = prepare(self.comparisons, runs=1, steps=None, trueskill={})
        timed_steps = comparisons_steps if steps is None else min(steps, comparisons_steps)
        wall, cpu = time.perf_counter(), time.process_time()
        for stream in np.random.default_rng(seed).spawn(timed_runs):
            self.run(params, timed_steps, stream)
        scale = comparisons_steps / timed_steps * runs / timed_runs
        return (time.perf_counter() - wall) * scale, (time.process_time() - cpu) * scale


def command_seconds(env: dict[str, str], seed: int) -> float:
    """Wall seconds of one ``manage.py rank`` in a fresh process, as a user runs it."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, str(REPO / "manage.py"), *COMMAND, "--seed", str(seed)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=REPO,
    )
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--yardstick-runs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from benchmarks.machine import machine_line
    from benchmarks.ranking_stats import e2e_dir

    print(machine_line(), flush=True)

    data_dir = e2e_dir()
    if not (data_dir / "quality.csv").is_file():
        print(f"E2E data not found at {data_dir}: nothing to benchmark (set HUMANEVAL_E2E_DIR).")
        return 0
    workdir = tempfile.mkdtemp(prefix="humaneval-rank-")
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{workdir}/bench.sqlite3")
    env.pop("CELERY_BROKER_URL", None)
    env["DJANGO_SETTINGS_MODULE"] = "humaneval.settings"
    manage = [sys.executable, str(REPO / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=REPO)
    subprocess.run(
        [*manage, "import_e2e", str(data_dir), "--campaign", "e2e"],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=REPO,
    )
    os.environ.update(DATABASE_URL=env["DATABASE_URL"], DJANGO_SETTINGS_MODULE="humaneval.settings")
    import django

    django.setup()
    from benchmarks.ranking import criterion_comparisons

    comparisons = criterion_comparisons(campaign="e2e", criterion="quality")
    load = os.getloadavg()[0]
    print(f"E2E quality: {len(comparisons)} comparisons; load {load:.2f} on {os.cpu_count()} cores")
    yardstick = Yardstick(comparisons)
    command_seconds(env, args.seed)  # the first call warms the OS's file cache, untimed
    walls, ratios = [], []
    for round_ in range(1, args.rounds + 1):
        wall = command_seconds(env, args.seed)
        stick, stick_cpu = yardstick.seconds(
            runs=200, timed_runs=args.yardstick_runs, seed=args.seed
        )
        walls.append(wall)
        ratios.append(stick / wall)
        print(
            f"round {round_}: rank {wall:.2f} s wall; yardstick {stick:.1f} s wall, "
            f"{stick_cpu:.1f} s CPU (200 runs, extrapolated); ratio {stick / wall:.1f}x"
        )
    wall, ratio = statistics.median(walls), statistics.median(ratios)
    print(f"median: rank {wall:.2f} s wall [{min(walls):.2f}-{max(walls):.2f}]; ratio {ratio:.1f}x")
    print(
        f"targets: <= {TARGET_SECONDS} s wall: {'met' if wall <= TARGET_SECONDS else 'NOT met'}; "
        f">= {TARGET_RATIO:.0f}x the yardstick: {'met' if ratio >= TARGET_RATIO else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
