"""Benchmark of the importers: are imports linear in the number of rows?

Generates, in a temporary folder, an outputs CSV of 5 systems x 1,000 items (5,000
outputs) and one of 25 systems x 1,000 items (25,000 outputs), and WMT ranking CSVs of
20,000 and 100,000 rows (five systems per row), imports each into a fresh campaign with
the platform's own import services, and prints the wall and CPU times and the ratios of the
large import to the small one measured in the same run (a linear import gives about 5;
a quadratic one about 25; the small file of each kind first, and what each import
stored counted against what the file holds). The targets: 25,000 outputs in under 20 s and
100,000 WMT rows in under 15 s.

Runs on a SQLite database in the temporary folder and, when ``DATABASE_URL`` is set,
on that database as well (its campaigns are deleted afterwards).

    python benchmarks/imports.py            # SQLite (and $DATABASE_URL)
    python benchmarks/imports.py --quick    # a tenth of the sizes, for a smoke test
"""

from __future__ import annotations

import argparse
import csv
import json
import os
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

TARGETS = {"outputs": (25_000, 20.0), "wmt": (100_000, 15.0)}


def write_outputs_csv(path: Path, *, systems: int, items: int) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["item_id", "input", "system", "output"])
        for i in range(items):
            mr = f"name[Restaurant {i}], eatType[pub], area[riverside], priceRange[£{i % 50}]"
            for s in range(systems):
                writer.writerow(
                    [f"mr{i}", mr, f"system{s:02d}", f"Output {s} about restaurant {i}, a pub."]
                )
    return path


def write_wmt_csv(
    path: Path, *, rows: int, rng: np.random.Generator, quality: np.ndarray | None = None
) -> Path:
    """``rows`` five-way WMT rankings of 12 systems with random ranks (ties included), or,
    given latent ``quality`` (one per system, higher is better), of those systems ranked
    by quality plus Gumbel noise (a Plackett-Luce judge: the true order is known)."""
    systems = [f"sys{s}" for s in range(12 if quality is None else len(quality))]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "srclang",
                "trglang",
                "srcIndex",
                "documentId",
                "segmentId",
                "judgeId",
                *[f"system{i}{p}" for i in range(1, 6) for p in ("Number", "Id")],
                *[f"system{i}rank" for i in range(1, 6)],
            ]
        )
        for n in range(rows):
            chosen = rng.choice(len(systems), size=5, replace=False)
            if quality is None:
                ranks = rng.integers(1, 6, size=5)
            else:
                seen = quality[chosen] + rng.gumbel(size=5)
                ranks = 1 + np.argsort(np.argsort(-seen))
            writer.writerow(
                [
                    "de",
                    "en",
                    n % 3000 + 1,
                    f"doc{n % 300}",
                    str(n % 3000 + 1),
                    f"judge{n % 150}",
                    *[v for i, s in enumerate(chosen) for v in (str(i + 1), systems[s])],
                    *[str(r) for r in ranks],
                ]
            )
    return path


#: The files in the order they are imported.
ORDER = ("outputs_small.csv", "outputs_large.csv", "wmt_small.csv", "wmt_large.csv")


def child(database_url: str, folder: Path) -> dict[str, float]:
    """Import every generated file into fresh campaigns of one database; seconds each."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from annotations.importing.outputs import outputs_import
    from annotations.importing.wmt import wmt_import
    from annotations.models import Campaign, Judgement, Output
    from annotations.services.campaigns import campaign_create

    call_command("migrate", verbosity=0)
    times: dict[str, float] = {}
    slugs = []
    try:
        # The small file of each kind before its large one (a warm cache favours the
        # second), and what each import stored counted afterwards.
        for name in ORDER:
            path = folder / name
            slug = f"bench-imports-{os.getpid()}-{path.stem}".replace("_", "-")
            slugs.append(slug)
            campaign = campaign_create(slug=slug)
            started, cpu = time.perf_counter(), time.process_time()
            if name.startswith("outputs"):
                outputs_import(campaign=campaign, path=path)
            else:
                wmt_import(campaign=campaign, path=path)
            times[path.stem] = time.perf_counter() - started
            times[f"{path.stem}_cpu"] = time.process_time() - cpu
            stored = (
                Output.objects.filter(item__campaign=campaign)
                if name.startswith("outputs")
                else Judgement.objects.filter(task__campaign=campaign)
            )
            times[f"{path.stem}_rows"] = stored.count()
    finally:
        Campaign.objects.filter(slug__in=slugs).delete()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    parser.add_argument("--child", nargs=2, metavar=("DATABASE_URL", "FOLDER"), help="internal")
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]))))
        return 0

    rng = np.random.default_rng(1)
    items = int(1000 * scale)
    n_outputs = (5 * items, 25 * items)
    small_wmt, large_wmt = int(20_000 * scale), int(100_000 * scale)
    with tempfile.TemporaryDirectory(prefix="humaneval-bench-imports-") as tmp:
        folder = Path(tmp) / "files"
        folder.mkdir()
        write_outputs_csv(folder / "outputs_small.csv", systems=5, items=items)
        write_outputs_csv(folder / "outputs_large.csv", systems=25, items=items)
        write_wmt_csv(folder / "wmt_small.csv", rows=small_wmt, rng=rng)
        write_wmt_csv(folder / "wmt_large.csv", rows=large_wmt, rng=rng)
        databases = [("SQLite", f"sqlite:///{tmp}/bench.sqlite3")]
        if os.environ.get("DATABASE_URL"):
            databases.append(("PostgreSQL", os.environ["DATABASE_URL"]))
        print(
            f"imports: {n_outputs[0]:,} and {n_outputs[1]:,} outputs, "
            f"{small_wmt:,} and {large_wmt:,} WMT rows; ratio = large / small (linear = 5)"
        )
        for label, url in databases:
            result = subprocess.run(
                [sys.executable, __file__, "--child", url, str(folder)],
                capture_output=True,
                text=True,
                cwd=REPO,
            )
            if result.returncode:
                print(f"\n{label}: the import failed\n{result.stderr}", file=sys.stderr)
                return result.returncode
            times = json.loads(result.stdout.strip().splitlines()[-1])
            print(f"\n{label}")
            for kind, (small, large) in (
                ("outputs", n_outputs),
                ("WMT rows", (small_wmt, large_wmt)),
            ):
                key = "outputs" if kind == "outputs" else "wmt"
                stored = (times[f"{key}_small_rows"], times[f"{key}_large_rows"])
                if stored != (small, large):
                    print(
                        f"\n{label}: {kind} stored {stored}, not {(small, large)}", file=sys.stderr
                    )
                    return 1
                t_small, t_large = times[f"{key}_small"], times[f"{key}_large"]
                target_rows, target_seconds = TARGETS[key]
                verdict = ""
                if large == target_rows:
                    verdict = (
                        f"  (target < {target_seconds:.0f} s: "
                        f"{'met' if t_large < target_seconds else 'MISSED'})"
                    )
                c_small, c_large = times[f"{key}_small_cpu"], times[f"{key}_large_cpu"]
                print(
                    f"  {kind:9s} {small:>7,}: {t_small:6.2f} s   {large:>7,}: {t_large:6.2f} s"
                    f"   ratio {t_large / t_small:4.1f}{verdict}\n"
                    f"  {'(CPU)':9s} {small:>7,}: {c_small:6.2f} s   {large:>7,}: {c_large:6.2f} s"
                    f"   ratio {c_large / c_small:4.1f}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
