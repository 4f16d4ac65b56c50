"""Load benchmark of the crowd-worker hot path (a crowd launch).

Builds a campaign on PostgreSQL (the E2E NLG Challenge outputs from ``../shared/e2e``
when present: 630 items x 21 systems, 6,300 tasks; otherwise, or with ``--items``, a
synthetic campaign of the same shape), runs ``ANALYZE`` (the state of any campaign a day
after launch), starts the production server (gunicorn as ``make serve`` runs it, with
Celery eager), simulates crowd workers with Locust headless (entry with a unique
Prolific id, consent, then fetch -> submit valid scores in a loop; what the browser
sends besides, each page's static files once a participant and the autosave drafts
while the worker thinks, unless ``--no-static`` / ``--no-drafts``; with ``--arrivals``
each participant arrives at its own random moment, else as Locust starts its users, in
batches of the spawn rate once a second), and prints per request kind p50/p95/p99
(overall, while arriving and after), the query count and database time per request, cycles
(fetch + submit) per second, errors, and an integrity check read from the database
afterwards: judgements = successful submits, no worker judged a task twice, no task
holds more places than its judgements per task.

``--per-request N`` instead measures the server's CPU per request kind (entry, consent,
fetch, submit), N participants one after the other against one gunicorn worker: CPU
time, which what else runs on the machine barely moves. ``--handout`` instead times the hand-out service alone (``task_next_for``) on a 6,000-
and a 60,000-task campaign and prints the ratio of their p95 (flat cost: about 1).

    python -m benchmarks.load --clients 20 200                  # closed loop
    python -m benchmarks.load --clients 1000 --think 20 --duration 120
    python -m benchmarks.load --clients 1000 --think 20 --spawn-rate 10 --duration 200 \
        --warmup 100                # arriving over 100 s, measured after they all came
    python -m benchmarks.load --clients 1000 --think 20 --arrivals 20 --duration 60
                                    # each arriving at its own random moment of 20 s
    python -m benchmarks.load --handout
    python -m benchmarks.load --synthetic --per-request 400
    make benchmark-load LOAD_ARGS="--clients 200"

``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/he_load``) names the
database, created when missing; every run builds a fresh campaign in it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# First, even where PYTHONPATH already names it: a script's own folder (benchmarks/,
# which has a ranking.py) comes before PYTHONPATH and would hide the ranking package.
if sys.path[0] != str(REPO):
    sys.path.insert(0, str(REPO))
E2E = REPO.parent / "shared" / "e2e"
VENV_BIN = Path(sys.executable).parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/he_load"
KINDS = ("entry", "consent", "fetch", "submit", "draft", "static")
#: The requests a participant waits for a page on (drafts and static files go unnoticed).
PAGES = ("entry", "consent", "fetch", "submit")


def _setup_django(db_url: str) -> None:
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
    _create_database(db_url)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _create_database(db_url: str) -> None:
    import psycopg2
    from psycopg2 import sql

    base, name = db_url.rsplit("/", 1)
    conn = psycopg2.connect(f"{base}/postgres")
    conn.autocommit = True
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            if cursor.fetchone() is None:
                cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    finally:
        conn.close()


def _service(name: str) -> Any:
    """A service function or type by name, wherever the services package keeps it."""
    import importlib

    for module in ("outputs", "campaigns", "criteria", "tasks", "designer"):
        try:
            found = getattr(importlib.import_module(f"annotations.services.{module}"), name, None)
        except ImportError:
            continue
        if found is not None:
            return found
    raise ImportError(f"no annotations.services module has {name}")


def _e2e_rows(items: int | None) -> list[Any]:
    OutputRow = _service("OutputRow")

    rows = []
    for path in sorted((E2E / "system_outputs").glob("*.tsv")):
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
        for i, line in enumerate(lines[:items] if items else lines):
            mr, _, text = line.partition("\t")
            rows.append(OutputRow(item_id=f"mr{i:04d}", input=mr, system=path.stem, text=text))
    return rows


def _synthetic_rows(items: int, systems: int) -> list[Any]:
    OutputRow = _service("OutputRow")

    return [
        OutputRow(
            item_id=f"mr{i:05d}",
            input=f"name[Place {i}], eatType[pub], area[riverside]",
            system=f"sys{s:02d}",
            text=f"Place {i} is a pub by the river, says system {s}.",
        )
        for i in range(items)
        for s in range(systems)
    ]


def build_campaign(*, slug: str, items: int | None, systems: int, synthetic: bool) -> Any:
    """A live campaign (2 criteria, 5 outputs per task, 3 judgements per task, 20 tasks
    per worker), built by the platform's own services, then ``ANALYZE``."""
    from django.db import connection

    from annotations.models import Campaign

    campaign_create, criterion_from_preset, criterion_rankme_set = (
        _service("campaign_create"),
        _service("criterion_from_preset"),
        _service("criterion_rankme_set"),
    )
    outputs_store, tasks_build = _service("outputs_store"), _service("tasks_build")

    started = time.perf_counter()
    campaign = campaign_create(
        slug=slug,
        name=f"Load benchmark {slug}",
        outputs_per_task=5,
        judgements_per_task=3,
        tasks_per_worker=20,
        assignment_timeout_minutes=30,
    )
    for preset in ("quality", "naturalness"):
        criterion = criterion_from_preset(campaign=campaign, preset=preset)
        criterion_rankme_set(
            criterion=criterion,
            standard_input="name[The Standard], food[English]",
            standard_text="The Standard serves English food.",
        )
    use_e2e = not synthetic and (E2E / "system_outputs").is_dir()
    rows = _e2e_rows(items) if use_e2e else _synthetic_rows(items or 630, systems)
    outputs_store(campaign=campaign, rows=rows)
    tasks_build(campaign=campaign, seed=7)
    # Launch checks are not what is measured here.
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.LIVE)
    campaign.refresh_from_db()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    n_tasks = campaign.tasks.count()
    source = "E2E outputs" if use_e2e else "synthetic outputs"
    print(
        f"campaign {slug}: {n_tasks:,} tasks from {len(rows):,} {source}, "
        f"built in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    return campaign


# The server -------------------------------------------------------------------------------


def start_server(
    args: argparse.Namespace, db_url: str, folder: Path
) -> list[subprocess.Popen[bytes]]:
    """gunicorn as ``make serve`` runs it, behind nginx as ``deploy/nginx.conf`` puts it
    (unless ``--proxy none``); the clients talk to ``--port``. The processes, front first."""
    from benchmarks.load import proxy

    proxied = args.proxy == "nginx"
    bind = f"127.0.0.1:{args.port + 1 if proxied else args.port}"
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SESSION_COOKIE_SECURE": "false",
        "DJANGO_CSRF_COOKIE_SECURE": "false",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "DJANGO_BEHIND_PROXY": "true" if proxied else "false",
        # Every simulated worker signs up from this machine's one address.
        "HUMANEVAL_WORKER_SIGNUPS_PER_CLIENT": "0",
    }
    env.pop("CELERY_BROKER_URL", None)
    command = [
        str(VENV_BIN / "gunicorn"),
        "benchmarks.load.wsgi:application" if args.query_stats else "humaneval.wsgi:application",
        "--bind",
        bind,
        "--workers",
        str(args.workers),
        "--worker-class",
        args.worker_class,
        "--threads",
        str(args.threads),
        "--preload",
        "--backlog",
        "4096",
        "--log-level",
        "warning",
    ]
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input"],
        cwd=REPO,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    server = subprocess.Popen(command, cwd=REPO, env=env)
    proxy.wait_answering(f"http://{bind}/accounts/login/", within=30)
    processes = [server]
    if proxied:
        static_root = Path(env.get("DJANGO_STATIC_ROOT") or REPO / "staticfiles")
        front = proxy.start(folder=folder, port=args.port, upstream=bind, static_root=static_root)
        processes.insert(0, front)
    print(
        ("server: nginx (deploy/nginx.conf) in front of " if proxied else "server: ")
        + f"gunicorn {args.workers} x {args.worker_class}"
        + (f" ({args.threads} threads)" if args.worker_class == "gthread" else ""),
        flush=True,
    )
    return processes


def _children_cpu_seconds() -> float:
    """User + system CPU time of this process's finished children (the Locust run)."""
    times = os.times()
    return times.children_user + times.children_system


def machine_cpu_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of every core since boot, from ``/proc/stat`` (Linux)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields) - idle) / ticks, sum(fields) / ticks


def _stat_cpu(stat: Path) -> tuple[str, float] | None:
    """A process's name and user + system CPU seconds so far, from its ``/proc/<pid>/stat``
    (Linux); None when the process has ended."""
    try:
        text = stat.read_text()
    except OSError:
        return None
    name, _, rest = text.partition(" (")[2].rpartition(")")
    fields = rest.split()
    return name, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_cpu_seconds_of(pid: int) -> float:
    """User + system CPU time of one process so far (Linux)."""
    found = _stat_cpu(Path(f"/proc/{pid}/stat"))
    if found is None:
        raise ProcessLookupError(pid)
    return found[1]


def postgres_cpu_seconds() -> float:
    """User + system CPU time so far of every PostgreSQL process on this machine (its
    backends and background writers; 0 where PostgreSQL runs elsewhere)."""
    found = (_stat_cpu(stat) for stat in Path("/proc").glob("[0-9]*/stat"))
    return sum(cpu for name, cpu in filter(None, found) if name == "postgres")


def server_cpu_seconds(server: subprocess.Popen[bytes]) -> float:
    """User + system CPU time of the gunicorn master and its workers so far (Linux)."""
    pids = [server.pid]
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    found = (_stat_cpu(Path(f"/proc/{pid}/stat")) for pid in pids)
    return sum(cpu for _, cpu in filter(None, found))


# One run ----------------------------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (the smallest value with at least q% at or below)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[index]


def _started(record: list[Any]) -> float:
    """When a request started, in seconds from the run's start (records keep its end)."""
    return float(record[4]) - float(record[0]) / 1000


def _times(records: list[list[Any]]) -> list[float]:
    """Response times in ms, a failed request counted as never answered (infinite)."""
    return [r[0] if r[3] else math.inf for r in records]


def integrity(campaign: Any, acknowledged: list[int] | None = None) -> dict[str, int]:
    """What the database says after a run: judgements, duplicates, over-assigned tasks,
    copied columns that disagree with what they copy (COPIES in annotations.models),
    and against the assignments whose submit the client saw acknowledged: ``lost`` (an
    acknowledged submit without its judgement) and ``unacknowledged`` (a judgement whose
    answer the client never saw, e.g. a cycle cut off by the end of the run), each
    compared assignment by assignment."""
    from django.db.models import Count, Q

    from annotations.models import Assignment, Judgement, Task
    from annotations.selectors.integrity import copies_disagreeing

    judgements = Judgement.objects.filter(task__campaign=campaign)
    duplicated = (
        judgements.values("worker_id", "task_id").annotate(n=Count("id")).filter(n__gt=1).count()
    )
    over = (
        Task.objects.filter(campaign=campaign, kind=Task.Kind.REGULAR)
        .annotate(
            held=Count(
                "assignments",
                filter=Q(assignments__kind="regular")
                & Q(assignments__state__in=[Assignment.State.ACTIVE, Assignment.State.SUBMITTED]),
            )
        )
        .filter(held__gt=campaign.judgements_per_task)
        .count()
    )
    stored = set(judgements.values_list("assignment_id", flat=True))
    seen = set(acknowledged or ())
    return {
        "judgements": len(stored),
        "lost": len(seen - stored),
        "unacknowledged": len(stored - seen) if acknowledged is not None else 0,
        "duplicated": duplicated,
        "over_assigned": over,
        "copies_disagreeing": sum(copies_disagreeing(campaign=campaign).values()),
    }


def _spawn_rate(args: argparse.Namespace, clients: int) -> float:
    """Locust's users started a second. With --arrivals every user starts at once and
    waits for its own moment."""
    return clients if args.arrivals else args.spawn_rate or max(10, min(clients, 100))


def _run_locust(
    args: argparse.Namespace, db_url: str, clients: int, slug: str, folder: Path
) -> tuple[dict[str, Any], float, float, float, list[float]]:
    """Start the servers, run Locust against them, stop them: Locust's records, the CPU
    seconds of gunicorn, of nginx and of the load client, and the machine's busy/total."""
    processes = start_server(args, db_url, folder)
    server, front = processes[-1], processes[:-1]
    try:
        results = folder / "results.json"
        env = {
            **os.environ,
            "LOAD_SLUG": slug,
            "LOAD_THINK": str(args.think),
            "LOAD_RESULTS": str(results),
            "LOAD_ARRIVALS": str(args.arrivals or 0),
            "LOAD_STATIC": "1" if args.static else "0",
            "LOAD_DRAFTS": "1" if args.drafts else "0",
        }
        spawn = _spawn_rate(args, clients)
        cpu_before = server_cpu_seconds(server)
        proxy_before = sum(server_cpu_seconds(p) for p in front)
        client_before = _children_cpu_seconds()
        machine_before = machine_cpu_seconds()
        subprocess.run(
            [
                str(VENV_BIN / "locust"),
                "-f",
                str(Path(__file__).with_name("locustfile.py")),
                "--headless",
                "--users",
                str(clients),
                "--spawn-rate",
                str(spawn),
                "--run-time",
                f"{args.duration}s",
                "--host",
                f"http://127.0.0.1:{args.port}",
                "--only-summary",
                "--loglevel",
                "ERROR",
                "--stop-timeout",  # let cycles under way finish: nothing in flight
                str(60 + int(3 * args.think)),
            ],
            cwd=REPO,
            env=env,
            check=False,
            stdout=subprocess.DEVNULL if not args.verbose else None,
        )
        data = json.loads(results.read_text(encoding="utf-8"))
        if args.records is not None:
            args.records.write_text(results.read_text(encoding="utf-8"), encoding="utf-8")
        cpu = server_cpu_seconds(server) - cpu_before
        proxy_cpu = sum(server_cpu_seconds(p) for p in front) - proxy_before
        client_cpu = _children_cpu_seconds() - client_before
        machine = [b - a for a, b in zip(machine_before, machine_cpu_seconds(), strict=True)]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)
    return data, cpu, proxy_cpu, client_cpu, machine


def run_load(args: argparse.Namespace, db_url: str, clients: int) -> dict[str, Any]:
    slug = f"load-{clients}-{int(time.time())}"
    campaign = build_campaign(
        slug=slug, items=args.items, systems=args.systems, synthetic=args.synthetic
    )
    with tempfile.TemporaryDirectory() as folder:
        data, cpu, proxy_cpu, client_cpu, machine = _run_locust(
            args, db_url, clients, slug, Path(folder)
        )
    found = integrity(campaign, data["acknowledged"])
    # Percentiles and cycles/s over the requests that started in the measured window:
    # after the warm-up (--warmup: e.g. the ramp while the participants arrive) and before
    # the run time is up (cycles under way then finish, counted; no new one starts). A
    # failed request counts as infinitely slow. The integrity check counts them all.
    end = min(data["seconds"], float(args.duration))
    warmup = min(args.warmup, 0.9 * end)
    measured = {
        kind: [r for r in records if warmup <= _started(r) < end]
        for kind, records in data["records"].items()
    }
    submitted = sum(1 for r in measured.get("submit", []) if r[3])
    row: dict[str, Any] = {
        "clients": clients,
        "think": args.think,
        "seconds": data["seconds"],
        "warmup": warmup,
        "submits_ok": data["submits_ok"],
        "sessions": data["sessions"],
        "cycles_per_s": submitted / (end - warmup),
        # The web processes' CPU per fetch + submit cycle (entries and consents included):
        # what sizes gunicorn, whatever else the machine is running.
        "server_cpu_ms_per_cycle": 1000 * cpu / max(1, data["submits_ok"]),
        # Where the machine's cores went over the run: the web processes, the load client
        # (Locust, on the same machine), and the share of all cores busy (anything).
        "web_cpu_s": cpu,
        "proxy_cpu_s": proxy_cpu,
        "client_cpu_s": client_cpu,
        "machine_busy": machine[0] / max(1e-9, machine[1]),
        **found,
        "kinds": {},
    }
    errors = 0
    for kind in KINDS:
        records = measured.get(kind, [])
        ok = [r for r in records if r[3]]
        errors += len(records) - len(ok)
        times = _times(records)
        queries = [r[1] for r in ok if r[1] >= 0]
        db_ms = [r[2] for r in ok if r[2] >= 0]
        row["kinds"][kind] = {
            "n": len(records),
            "errors": len(records) - len(ok),
            "p50": _percentile(times, 50),
            "p95": _percentile(times, 95),
            "p99": _percentile(times, 99),
            "queries": statistics.median(queries) if queries else float("nan"),
            "queries_max": max(queries) if queries else float("nan"),
            "db_ms": statistics.median(db_ms) if db_ms else float("nan"),
        }
    row["errors"] = errors
    # The p95 of each request kind while the participants arrive (requests started then)
    # and after the last one came.
    arriving = args.arrivals or clients / _spawn_rate(args, clients)
    row["arriving_s"] = arriving
    # Fetch's p95 by 5 s of the run (requests by their start): whether a backlog of the
    # arrivals is still draining when they are over.
    fetches = data["records"].get("fetch", [])
    row["fetch_p95_by_5s"] = [
        _percentile(_times([r for r in fetches if t <= _started(r) < t + 5]), 95)
        for t in range(0, math.ceil(end), 5)
    ]
    row["phases"] = {
        phase: {
            kind: _percentile(
                _times([r for r in data["records"].get(kind, []) if inside(_started(r))]), 95
            )
            for kind in KINDS
        }
        for phase, inside in (
            ("arriving", lambda t: t < arriving),
            ("after", lambda t: arriving <= t < end),
        )
    }
    return row


def print_report(rows: list[dict[str, Any]]) -> None:
    print()
    print(
        "| clients | think s | fetch p50 / p95 / p99 ms | submit p50 / p95 / p99 ms "
        "| cycles/s | web CPU ms/cycle | web / proxy / client CPU s, cores busy | errors "
        "| judgements = submits | duplicated | over-assigned | copies disagreeing |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        f, s = r["kinds"]["fetch"], r["kinds"]["submit"]
        print(
            f"| {r['clients']} | {r['think']:g} "
            f"| {f['p50']:.0f} / {f['p95']:.0f} / {f['p99']:.0f} "
            f"| {s['p50']:.0f} / {s['p95']:.0f} / {s['p99']:.0f} "
            f"| {r['cycles_per_s']:.1f} | {r['server_cpu_ms_per_cycle']:.0f} "
            f"| {r['web_cpu_s']:.0f} / {r['proxy_cpu_s']:.1f} / {r['client_cpu_s']:.0f} s, "
            f"{100 * r['machine_busy']:.0f}% | {r['errors']} "
            f"| {r['judgements']} = {r['submits_ok']} ({r['lost']} lost, "
            f"{r['unacknowledged']} unacknowledged) "
            f"| {r['duplicated']} | {r['over_assigned']} | {r['copies_disagreeing']} |"
        )
    print()
    print(
        "| clients | request | n | errors | p50 / p95 / p99 ms | p95 while arriving / after ms "
        "| queries (median / max) | DB ms (median) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        for kind in KINDS:
            k = r["kinds"][kind]
            arriving, after = r["phases"]["arriving"][kind], r["phases"]["after"][kind]
            if not k["n"]:  # every one came in the warm-up, or none was sent
                print(f"| {r['clients']} | {kind} | 0 | 0 | - | - | - | - |")
                continue
            print(
                f"| {r['clients']} | {kind} | {k['n']} | {k['errors']} "
                f"| {k['p50']:.0f} / {k['p95']:.0f} / {k['p99']:.0f} "
                f"| {arriving:.0f} / {after:.0f} "
                f"| {k['queries']:g} / {k['queries_max']:g} | {k['db_ms']:.1f} |"
            )
    for r in rows:
        by_5s = ", ".join(f"{5 * i}: {p:.0f}" for i, p in enumerate(r["fetch_p95_by_5s"]))
        print(f"{r['clients']} clients: fetch p95 ms by 5 s of the run (start s: ms): {by_5s}")
        worst = max(r["phases"]["arriving"][kind] for kind in PAGES)
        print(
            f"{r['clients']} clients: the slowest page's p95 while they arrive "
            f"(first {r['arriving_s']:g} s): {worst:.0f} ms"
        )


# Server CPU per request kind -------------------------------------------------------------


class _Browser:
    """One participant's HTTP connection with its cookies (standard library only: Locust
    patches it when imported)."""

    def __init__(self, port: int) -> None:
        import http.client

        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, str, str]:
        """(status, Location, body) of one request; keeps the cookies it sets."""
        from urllib.parse import urlencode, urlsplit

        headers = {"Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode("utf-8")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return response.status, urlsplit(response.getheader("Location") or "").path, text


def run_per_request(args: argparse.Namespace, db_url: str) -> dict[str, float]:
    """Server CPU per request kind: ``--per-request N`` participants, one after the other,
    against one gunicorn worker; each kind run for all of them in turn (entries, then
    consents, fetches, submits) and the worker's CPU read before and after. CPU time, not
    wall time: a figure that another program on the machine barely moves."""
    import uuid

    from benchmarks.load.pages import ACTION, IDENTITY, SCORE, answers, unescape

    slug = f"load-cpu-{int(time.time())}"
    build_campaign(slug=slug, items=args.items, systems=args.systems, synthetic=args.synthetic)
    args.workers, args.worker_class, args.query_stats = 1, "sync", False
    args.proxy = "none"  # one gunicorn worker's CPU, nothing in between
    folder = tempfile.TemporaryDirectory()
    (server,) = start_server(args, db_url, Path(folder.name))
    worker_pid = int(Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()[0])
    participants: list[dict[str, Any]] = []

    def entry(p: dict[str, Any]) -> None:
        pid = uuid.uuid4().hex[:24]
        _, _, page = p["browser"].request(
            "GET", f"/w/{slug}/?PROLIFIC_PID={pid}&STUDY_ID=load&SESSION_ID={pid}"
        )
        found = IDENTITY.search(page)
        assert found is not None, "entry: no identity on the consent page"
        p["identity"] = unescape(found.group(1) or found.group(2))

    def consent(p: dict[str, Any]) -> None:
        status, p["session"], _ = p["browser"].request(
            "POST", f"/w/{slug}/start/", {"agree": "on", "identity": p["identity"]}
        )
        assert status in (302, 303), f"consent: {status}"

    def fetch(p: dict[str, Any]) -> None:
        status, _, page = p["browser"].request("GET", p["session"])
        action = ACTION.search(page)
        assert status == 200 and action is not None, f"fetch: {status}"
        p["action"] = unescape(action.group(1))
        p["answers"] = answers(page, sorted({int(s) for s in SCORE.findall(page)}))

    def submit(p: dict[str, Any]) -> None:
        status, _, _ = p["browser"].request("POST", p["action"], p["answers"])
        assert status in (302, 303), f"submit: {status}"

    figures: dict[str, float] = {}
    database: dict[str, float] = {}
    try:
        for label, kinds in (("warm-up", (entry,)), ("", (entry, consent, fetch, submit))):
            participants = [{"browser": _Browser(args.port)} for _ in range(args.per_request)]
            for kind in kinds:
                before = server_cpu_seconds_of(worker_pid)
                db_before = postgres_cpu_seconds()
                for p in participants:
                    kind(p)
                if label != "warm-up":
                    n = len(participants)
                    figures[kind.__name__] = 1000 * (server_cpu_seconds_of(worker_pid) - before) / n
                    database[kind.__name__] = 1000 * (postgres_cpu_seconds() - db_before) / n
    finally:
        server.terminate()
        server.wait(timeout=30)
        folder.cleanup()
    print(
        f"server CPU per request, {args.per_request} participants one after the other: "
        + ", ".join(f"{kind} {ms:.2f} ms" for kind, ms in figures.items())
        + f"; an arrival (entry + consent + first fetch) "
        f"{figures['entry'] + figures['consent'] + figures['fetch']:.2f} ms, "
        f"a cycle (fetch + submit) {figures['fetch'] + figures['submit']:.2f} ms"
    )
    if any(database.values()):  # PostgreSQL on this machine: its processes' CPU too
        print(
            "PostgreSQL CPU per request (all its processes on this machine): "
            + ", ".join(f"{kind} {ms:.2f} ms" for kind, ms in database.items())
            + f"; a cycle {database['fetch'] + database['submit']:.2f} ms"
        )
    return figures


# Hand-out cost against campaign size ------------------------------------------------------


def run_handout(args: argparse.Namespace) -> None:
    """p95 of ``task_next_for`` (a fresh claim each time) at 6,000 and 60,000 tasks."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotations.models import Campaign, Worker
    from annotations.services.assignment import task_next_for
    from annotations.services.judgements import judgement_submit
    from annotations.services.sessions import worker_consent

    sizes = {"6k": 600, "60k": 6000}  # items x 21 systems x 2 criteria / 5 per task x ...
    figures: dict[str, float] = {}
    for label, items in sizes.items():
        slug = f"load-handout-{label}"
        campaign = Campaign.objects.filter(slug=slug).first()
        if campaign is None:
            campaign = build_campaign(slug=slug, items=items, systems=21, synthetic=True)
        else:
            print(f"campaign {slug}: reused ({campaign.tasks.count():,} tasks)", flush=True)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        times: list[float] = []
        queries: list[int] = []
        stamp = int(time.time() * 1000)
        for n in range(args.handouts):
            worker = Worker.objects.create(
                campaign=campaign, platform="prolific", external_id=f"h{stamp}-{n}"
            )
            worker_consent(worker=worker)
            for _ in range(3):  # a few tasks each, so places fill up as in a live study
                connection.queries_log.clear()
                with CaptureQueriesContext(connection) as captured:
                    started = time.perf_counter()
                    assignment = task_next_for(worker=worker, campaign=campaign)
                    times.append((time.perf_counter() - started) * 1000)
                queries.append(len(captured))
                if assignment is None:
                    break
                judgement_submit(
                    assignment=assignment, scores={s: 100 for s in assignment.display_order}
                )
        figures[label] = _percentile(times, 95)
        print(
            f"{label}: {campaign.tasks.count():,} tasks, {len(times)} hand-outs: "
            f"p50 {_percentile(times, 50):.1f} ms, p95 {figures[label]:.1f} ms, "
            f"queries median {statistics.median(queries):g}",
            flush=True,
        )
    print(f"hand-out p95 ratio 60k / 6k: {figures['60k'] / figures['6k']:.2f} (target <= 1.5)")


def main() -> None:
    from benchmarks.load import proxy

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[20, 200])
    parser.add_argument("--think", type=float, default=0.0, help="mean think time, seconds")
    parser.add_argument(
        "--spawn-rate",
        type=float,
        default=None,
        help="participants arriving per second (default: the clients, at most 100)",
    )
    parser.add_argument(
        "--arrivals",
        type=float,
        default=None,
        help="the participants arrive at independent uniformly random moments within these "
        "seconds (default: Locust's batches, --spawn-rate at once every second)",
    )
    parser.add_argument(
        "--no-static",
        dest="static",
        action="store_false",
        help="no static files (a new participant's browser loads each page's once)",
    )
    parser.add_argument(
        "--no-drafts",
        dest="drafts",
        action="store_false",
        help="no autosave drafts while the worker thinks (static/js/autosave.js)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=0.0,
        help="seconds at the start left out of the percentiles and cycles/s",
    )
    parser.add_argument("--duration", type=int, default=45, help="seconds per run")
    parser.add_argument("--items", type=int, default=None, help="items (default: all 630)")
    parser.add_argument("--systems", type=int, default=21, help="systems (synthetic)")
    parser.add_argument("--synthetic", action="store_true", help="synthetic outputs, not E2E")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_WORKERS", 3)))
    parser.add_argument(
        "--worker-class", default=os.environ.get("WEB_WORKER_CLASS", "sync"), help="gunicorn"
    )
    parser.add_argument("--threads", type=int, default=int(os.environ.get("WEB_THREADS", 1)))
    parser.add_argument(
        "--proxy",
        choices=("nginx", "none"),
        default="nginx" if proxy.nginx() else "none",
        help="what the clients talk to: nginx in front of gunicorn as deploy/nginx.conf puts "
        "it (the default where nginx is installed), or gunicorn itself",
    )
    parser.add_argument(
        "--port", type=int, default=8765, help="the clients' port (gunicorn's the next one)"
    )
    parser.add_argument("--no-query-stats", dest="query_stats", action="store_false")
    parser.add_argument("--handout", action="store_true", help="6k vs 60k hand-out cost")
    parser.add_argument("--handouts", type=int, default=100, help="workers per size")
    parser.add_argument(
        "--per-request",
        type=int,
        default=0,
        metavar="N",
        help="server CPU per request kind, N participants one after the other",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    parser.add_argument(
        "--records", type=Path, default=None, help="also write every request's record here"
    )
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    from benchmarks.machine import machine_line

    print(machine_line(), flush=True)
    db_url = os.environ.get("DATABASE_URL", DEFAULT_DB)
    if not db_url.startswith("postgres"):
        parser.error("the load benchmark needs PostgreSQL (DATABASE_URL=postgres://...)")
    _setup_django(db_url)
    if args.handout:
        run_handout(args)
        return
    if args.per_request:
        run_per_request(args, db_url)
        return
    rows = [run_load(args, db_url, clients) for clients in args.clients]
    print_report(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
