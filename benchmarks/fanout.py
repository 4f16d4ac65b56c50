"""Benchmark: one ranking run fanned out over 1, then 2, real Celery worker processes.

Fan-out: the same run (method, runs, seed) computed by one worker process and
by two must give identical results, and two should be faster. This script:

- uses the PostgreSQL database ``he_fanout`` (created and migrated when missing) and
  Redis ``127.0.0.1:6379`` (database 13) as the broker;
- imports the released E2E data (``$HUMANEVAL_E2E_DIR`` or ``../shared/e2e``) once, or,
  when it is absent, a synthetic campaign of 10 systems with planted strengths;
- for 1 and 2 workers: starts that many ``celery worker --concurrency=1`` processes
  (subprocesses, stopped by their pid at the end), warms them up with a small run
  (numba's cached kernel loads once per process), then times a run of ``--runs`` runs
  from creation until it is done;
- computes the same run in this process (the ``rank`` command's path) as the oracle;
- prints the times, ``identical: yes/no`` and the speed-up ratio.

    .venv/bin/python benchmarks/fanout.py [--runs 400] [--method wmt14] [--seed 1]

Skips (exit 0, with the reason) when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DB_NAME = "he_fanout"
DB_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
BROKER = "redis://127.0.0.1:6379/13"


def _reachable() -> str | None:
    """None when PostgreSQL and Redis answer, else why not."""
    import psycopg2
    import redis

    try:
        redis.Redis.from_url(BROKER, socket_connect_timeout=2).ping()
    except Exception as exc:
        return f"Redis at 127.0.0.1:6379 is not reachable ({type(exc).__name__})"
    try:
        conn = psycopg2.connect(host="127.0.0.1", port=5432, user="postgres", dbname="postgres")
    except Exception as exc:
        return f"PostgreSQL at 127.0.0.1:5432 is not reachable ({type(exc).__name__})"
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DB_NAME])
        if cur.fetchone() is None:
            cur.execute(f'CREATE DATABASE "{DB_NAME}"')
    conn.close()
    return None


def _start_workers(n: int, tag: str) -> list[subprocess.Popen[bytes]]:
    env = {**os.environ, "DATABASE_URL": DB_URL, "CELERY_BROKER_URL": BROKER}
    procs = []
    for i in range(n):
        log = open(f"/tmp/humaneval-fanout-{tag}-{i}.log", "wb")  # noqa: SIM115
        procs.append(
            subprocess.Popen(
                [
                    str(REPO / ".venv" / "bin" / "celery"),
                    "-A",
                    "humaneval",
                    "worker",
                    "--concurrency=1",
                    "--pool=prefork",
                    "--prefetch-multiplier=1",
                    "--without-gossip",
                    "--without-mingle",
                    "--loglevel=WARNING",
                    f"--hostname=fanout-{tag}-{i}@%h",
                ],
                cwd=REPO,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    return procs


def _stop_workers(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_for_workers(app, n: int, tag: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=1.0) or []
        names = [name for reply in replies for name in reply if name.startswith(f"fanout-{tag}-")]
        if len(names) >= n:
            return
    raise SystemExit(f"the {n} Celery worker(s) did not answer within 60 s")


def _run_and_wait(campaign, criterion, *, method: str, runs: int, seed: int):
    from ranking.models import RankingRun
    from ranking.services.runs import ranking_run_create

    started = time.perf_counter()
    run = ranking_run_create(
        campaign=campaign, criterion=criterion, method=method, runs=runs, seed=seed
    )
    while True:
        run.refresh_from_db()
        if run.status in RankingRun.ENDED:
            break
        time.sleep(0.05)
    seconds = time.perf_counter() - started
    if run.status != RankingRun.Status.DONE:
        raise SystemExit(f"run {run.pk} ended {run.status}: {run.error}")
    return run, seconds


def _values(run) -> list[tuple[str, float, float, int, int, int]]:
    return sorted(
        (r.system.label, r.value, r.spread, r.rank_lo, r.rank_hi, r.cluster)
        for r in run.results.select_related("system")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--method", default="wmt14")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    reason = _reachable()
    if reason:
        print(f"skipped: {reason}; start PostgreSQL and Redis (see .ci/run).")
        return 0
    os.environ["DATABASE_URL"] = DB_URL
    os.environ["CELERY_BROKER_URL"] = BROKER
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
    os.environ["HUMANEVAL_JOBS_IN_THREAD"] = "false"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from annotations.models import Campaign, Criterion
    from humaneval.celery import app
    from ranking import stats
    from ranking.models import RankingRun
    from ranking.services.compute import ranking_run_compute
    from ranking.services.runs import ranking_run_create

    call_command("migrate", verbosity=0)
    app.control.purge()
    data_dir = Path(os.environ.get("HUMANEVAL_E2E_DIR", REPO.parent / "shared" / "e2e"))
    if (data_dir / "quality.csv").is_file():
        slug, criterion_name = "e2e", "quality"
        if not Campaign.objects.filter(slug=slug).exists():
            from annotations.importing.ratings import e2e_import

            t0 = time.perf_counter()
            e2e_import(campaign_slug=slug, folder=data_dir)
            print(f"imported {data_dir} in {time.perf_counter() - t0:.1f} s")
        source = f"E2E {criterion_name} ({data_dir})"
    else:
        slug, criterion_name = "fanout-synthetic", "quality"
        if not Campaign.objects.filter(slug=slug).exists():
            from tests.ranking.planted import planted_campaign

            campaign, _ = planted_campaign(
                strengths=[10.0 * i for i in range(10)], n_judgements=2000, seed=1
            )
            Campaign.objects.filter(pk=campaign.pk).update(slug=slug)
        source = f"synthetic campaign (E2E data not found at {data_dir})"
    campaign = Campaign.objects.get(slug=slug)
    criterion = Criterion.objects.get(campaign=campaign, name=criterion_name)
    RankingRun.objects.filter(campaign=campaign).delete()  # earlier benchmark runs
    print(f"{source}: {args.method}, {args.runs} runs, seed {args.seed}")

    timed = {}
    results = {}
    for n in (1, 2):
        procs = _start_workers(n, f"w{n}")
        try:
            _wait_for_workers(app, n, f"w{n}")
            # Warm-up: every worker process loads the compiled kernel once.
            warm = stats.DEFAULT_CHUNK_RUNS * 2 * n
            _run_and_wait(campaign, criterion, method=args.method, runs=warm, seed=0)
            run, seconds = _run_and_wait(
                campaign, criterion, method=args.method, runs=args.runs, seed=args.seed
            )
        finally:
            _stop_workers(procs)
        timed[n] = seconds
        results[n] = _values(run)
        print(
            f"{n} worker process(es): {seconds:.2f} s for {run.chunks.count()} chunks of "
            f"{run.chunk_runs} runs"
        )
    here = ranking_run_create(
        campaign=campaign,
        criterion=criterion,
        method=args.method,
        runs=args.runs,
        seed=args.seed,
        queue=False,
    )
    t0 = time.perf_counter()
    ranking_run_compute(run=here, fan_out=False)
    print(f"in this process (the rank command's path): {time.perf_counter() - t0:.2f} s")
    identical = results[1] == results[2] == _values(here)
    print(f"identical: {'yes' if identical else 'no'}")
    print(f"speed-up 2 vs 1 worker processes: {timed[1] / timed[2]:.2f}x")
    return 0 if identical else 1


if __name__ == "__main__":
    raise SystemExit(main())
