"""Benchmark: the platform's WMT14 ranking of both E2E criteria against the reference.

Imports ``../shared/e2e`` (or ``$HUMANEVAL_E2E_DIR``) into a throwaway SQLite database
with the platform's own importer, reads each criterion's judgements through the same
selector a ranking run uses, then times in this process:

- the project's vectorised ``wmt14`` with 200 runs on both criteria, one after the other
  and in two processes (one per criterion, as two Celery workers would);
- the straightforward reference, a loop over the ``trueskill`` package's ``rate_1vs1``
  running the same procedure, over a few runs, extrapolated to 200;

and prints both times, the ratio and the peak memory.

    .venv/bin/python benchmarks/ranking.py [--runs 200] [--reference-runs 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ranking.stats._pairwise import Comparisons

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def criterion_comparisons(*, campaign: str, criterion: str) -> Comparisons:
    """A criterion's counted judgements as the comparisons a ranking run reads (through
    the run's own selector). Needs Django set up."""
    from annotations.models import Criterion
    from ranking.selectors.runs import ranking_scores
    from ranking.stats._pairwise import judgements_to_comparisons

    scores = ranking_scores(
        criterion=Criterion.objects.get(campaign__slug=campaign, name=criterion)
    )
    return judgements_to_comparisons(
        scores.judgement,
        scores.system,
        scores.score,
        n_systems=len(scores.systems),
        slot=scores.slot,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--reference-runs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from benchmarks.ranking_stats import e2e_dir

    data_dir = e2e_dir()
    if not (data_dir / "quality.csv").is_file():
        print(f"E2E data not found at {data_dir}: nothing to benchmark (set HUMANEVAL_E2E_DIR).")
        return 0
    workdir = tempfile.mkdtemp(prefix="humaneval-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from annotations.importing.ratings import e2e_import
    from benchmarks.ranking_stats import benchmark

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    e2e_import(campaign_slug="e2e", folder=data_dir)
    print(f"imported {data_dir} in {time.perf_counter() - started:.1f} s")
    comparisons = {
        name: criterion_comparisons(campaign="e2e", criterion=name)
        for name in ("quality", "naturalness")
    }
    benchmark(comparisons, runs=args.runs, reference_runs=args.reference_runs, seed=args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
