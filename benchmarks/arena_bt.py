"""Benchmark: Bradley-Terry with bootstrap at arena scale, humaneval against FastChat.

The data: ``--rankings`` (100,000) five-way WMT rankings of ``--systems`` (100) systems
with latent qualities spread evenly, each ranked by quality plus Gumbel noise (a
Plackett-Luce judge), that is 1,000,000 pairwise comparisons. They are imported once
(``manage.py import_wmt``, not timed) into ``$DATABASE_URL`` (PostgreSQL at
``postgres://postgres@127.0.0.1:5432/he_bench_bt`` when it answers, else a SQLite file).

Then, alternating, ``--repeat`` (3) times each, with ``--bootstrap`` (1,000) replicates:

- **humaneval**: ``manage.py rank <campaign> --method bradley_terry --runs 1000`` in a
  fresh process, timed from the outside: start-up, reading the 1M comparisons from the
  database, the fit and the bootstrap, the JSON written;
- **FastChat**: ``compute_bootstrap_bt(battles, num_round=1000)`` of FastChat's
  ``fastchat/serve/monitor/rating_systems.py`` (Chatbot Arena's current leaderboard code:
  unique (model_a, model_b, outcome) rows resampled with one multinomial, one L-BFGS fit
  per replicate over a process pool of all cores), in a fresh process on the same
  comparisons as a battles DataFrame (``model_a`` the system shown first, ``winner``
  from the ranks; ties as ties). Only the call is timed: its imports and building the
  DataFrame are left out, in FastChat's favour.

It prints each time, the ratio FastChat / humaneval of the medians (the target: at least
5), and checks the two point estimates agree: humaneval's Bradley-Terry value (natural
log-odds, centred) on the Elo scale ``400 / ln(10) * theta`` against FastChat's
``compute_bt`` (centred), the largest difference in Elo points (kept: at most 0.0005).

FastChat is not on the package index in its current form (``fschat`` 0.2.36 predates
``rating_systems.py``), and its code is not copied here. Point ``--fastchat`` (or
``$FASTCHAT_SRC``) at its ``rating_systems.py`` from a checkout of
https://github.com/lm-sys/FastChat (measured at commit
``e208d5677c6837d590b81cb03847c0b9de100765``, the file's last change; Apache-2.0); it
needs ``pandas``, ``scipy`` and ``tqdm`` (``pip install -e '.[bench]'``).

    .venv/bin/python benchmarks/arena_bt.py --fastchat ~/FastChat/fastchat/serve/monitor/rating_systems.py
        [--rankings 100000] [--systems 100] [--bootstrap 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import statistics
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

PG_URL = "postgres://postgres@127.0.0.1:5432/he_bench_bt"
ELO = 400 / math.log(10)


def database_url() -> str:
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]
    try:
        import psycopg2

        psycopg2.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=postgres", connect_timeout=2
        ).close()
    except Exception:  # no PostgreSQL: SQLite
        return ""
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", "CREATE DATABASE he_bench_bt"],
        capture_output=True,
        check=False,
    )
    return PG_URL


def battles_from_csv(path: Path, out: Path) -> int:
    """The CSV's comparisons as FastChat battles (model_a shown first), saved as .npz."""
    a: list[str] = []
    b: list[str] = []
    winner: list[str] = []
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            shown = [(row[f"system{i}Id"], int(row[f"system{i}rank"])) for i in range(1, 6)]
            for i in range(5):
                for j in range(i + 1, 5):
                    (sa, ra), (sb, rb) = shown[i], shown[j]
                    a.append(sa)
                    b.append(sb)
                    winner.append("model_a" if ra < rb else "model_b" if rb < ra else "tie")
    np.savez(out, model_a=np.array(a), model_b=np.array(b), winner=np.array(winner))
    return len(a)


def fastchat_child(source: Path, battles: Path, rounds: int) -> None:
    """In a fresh process: FastChat's point fit and its bootstrap (the call timed)."""
    import importlib.util

    import pandas as pd

    spec = importlib.util.spec_from_file_location("fastchat_rating_systems", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its process pool pickles functions by module name
    spec.loader.exec_module(module)
    with np.load(battles) as data:
        df = pd.DataFrame({k: data[k] for k in ("model_a", "model_b", "winner")})
    point = module.compute_bt(df)
    # the reference fit: FastChat's own objective minimised to convergence (its default
    # L-BFGS stops on the relative change of the loss, a few thousandths of an Elo point
    # short of the optimum on a million battles)
    from scipy.optimize import minimize

    matchups, outcomes, models, weights = module.preprocess_for_bt(df)
    alpha = math.log(10.0)
    fitted = minimize(
        module.bt_loss_and_grad,
        np.zeros(len(models)),
        args=(matchups, outcomes, weights, alpha),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 10_000, "ftol": 0.0, "gtol": 1e-9},
    )["x"]
    reference = {str(m): float(v) * 400 for m, v in zip(models, fitted, strict=True)}
    started = time.perf_counter()
    boot = module.compute_bootstrap_bt(df, num_round=rounds)
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "seconds": seconds,
                "point": {str(k): float(v) for k, v in point.items()},
                "reference": reference,
                "replicates": int(boot.shape[0]),
            }
        )
    )


def _gap(fastchat: dict) -> float:
    names = sorted(fastchat["reference"])
    a = np.array([fastchat["point"][s] for s in names])
    b = np.array([fastchat["reference"][s] for s in names])
    return float(np.max(np.abs((a - a.mean()) - (b - b.mean()))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rankings", type=int, default=100_000)
    parser.add_argument("--systems", type=int, default=100)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fastchat", type=Path, default=os.environ.get("FASTCHAT_SRC"))
    parser.add_argument("--fastchat-child", nargs=3, metavar=("SRC", "BATTLES", "ROUNDS"))
    args = parser.parse_args()
    if args.fastchat_child:
        src, battles, rounds = args.fastchat_child
        fastchat_child(Path(src), Path(battles), int(rounds))
        return 0
    if args.fastchat is None or not Path(args.fastchat).is_file():
        print("FastChat's rating_systems.py not found: give --fastchat PATH (see the docstring)")
        return 2

    quality = np.linspace(3.0, -3.0, args.systems)
    with tempfile.TemporaryDirectory(prefix="humaneval-bench-bt-") as tmp:
        env = dict(os.environ)
        env.pop("CELERY_BROKER_URL", None)
        env["DATABASE_URL"] = database_url() or f"sqlite:///{tmp}/bt.sqlite3"
        database = env["DATABASE_URL"].split(":", 1)[0]
        csv_path = write_wmt_csv(
            Path(tmp) / "arena.csv",
            rows=args.rankings,
            rng=np.random.default_rng(args.seed),
            quality=quality,
        )
        n_battles = battles_from_csv(csv_path, Path(tmp) / "battles.npz")
        slug = f"bench-bt-{os.getpid()}"

        def run(argv: list[str]) -> tuple[str, float]:
            started = time.perf_counter()
            done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True)
            if done.returncode:
                raise SystemExit(f"{' '.join(argv[:4])} failed:\n{done.stderr[-2000:]}")
            return done.stdout, time.perf_counter() - started

        manage = [sys.executable, "manage.py"]
        run([*manage, "migrate", "--verbosity", "0"])
        _, t_import = run([*manage, "import_wmt", str(csv_path), "--campaign", slug])
        print(
            f"{args.rankings:,} five-way rankings of {args.systems} systems ({n_battles:,} "
            f"comparisons) imported into {database} in {t_import:.1f} s (not timed below)"
        )
        rank = [
            *manage,
            "rank",
            slug,
            "--criterion",
            "ranking",
            "--method",
            "bradley_terry",
            "--runs",
            str(args.bootstrap),
            "--seed",
            str(args.seed),
            "--format",
            "json",
        ]
        child = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--fastchat-child",
            str(Path(args.fastchat).resolve()),
            str(Path(tmp) / "battles.npz"),
            str(args.bootstrap),
        ]
        ours: list[float] = []
        theirs: list[float] = []
        outputs: list[str] = []
        fastchat: dict = {}
        try:
            for k in range(args.repeat):
                out, seconds = run(rank)
                outputs.append(out)
                ours.append(seconds)
                fc_out, fc_wall = run(child)
                fastchat = json.loads(fc_out)
                theirs.append(fastchat["seconds"])
                print(
                    f"  round {k + 1}: humaneval rank (whole command) {seconds:.2f} s; "
                    f"FastChat compute_bootstrap_bt (the call) {fastchat['seconds']:.2f} s "
                    f"(its process {fc_wall:.2f} s)"
                )
        finally:
            run(
                [
                    *manage,
                    "shell",
                    "-c",
                    "from annotations.models import Campaign; "
                    f"Campaign.objects.filter(slug='{slug}').delete()",
                ]
            )
    result = json.loads(outputs[-1])
    same = all(json.loads(o)["ranking"] == result["ranking"] for o in outputs)
    value = {row["system"]: row["value"] for row in result["ranking"]}
    names = sorted(value)
    ours_elo = np.array([value[s] for s in names]) * ELO

    def gap(elo: dict[str, float]) -> float:
        other = np.array([elo[s] for s in names])
        return float(np.max(np.abs((ours_elo - ours_elo.mean()) - (other - other.mean()))))

    to_reference, to_fastchat = gap(fastchat["reference"]), gap(fastchat["point"])
    ratio = statistics.median(theirs) / statistics.median(ours)
    print(
        f"\nmedian of {args.repeat}: humaneval {statistics.median(ours):.2f} s, FastChat "
        f"{statistics.median(theirs):.2f} s: FastChat / humaneval {ratio:.1f}x "
        f"(target >= 5x: {'met' if ratio >= 5 else 'MISSED'})\n"
        f"point estimates, largest difference in Elo points: humaneval vs the reference fit "
        f"(FastChat's objective to convergence) {to_reference:.6f} (kept <= 0.0005: "
        f"{'yes' if to_reference <= 5e-4 else 'NO'}); FastChat's compute_bt vs the same "
        f"reference {_gap(fastchat):.6f}; humaneval vs "
        f"compute_bt {to_fastchat:.6f}\n"
        f"humaneval's rankings identical across rounds: {same}; FastChat replicates "
        f"{fastchat['replicates']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
