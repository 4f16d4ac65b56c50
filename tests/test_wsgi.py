"""The production entry point starts warm and light (for a crowd launch).

A gunicorn worker imports ``humaneval.wsgi`` before it accepts a request: every view is
imported then (not by the first crowd worker it serves), and scipy.stats, which only the
expert and metric correlations use, is not imported at all (it was 1-2 s of every web
process's start). A fresh interpreter checks this, since the test process has imported
everything already.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fresh_interpreter import (
    REPO,
    TEST_SECRET_KEY,
    fresh_interpreter_json,
    run_command,
    run_python,
    start_environment,
)

SCRIPT = """
import json, sys
import humaneval.wsgi
print(json.dumps({
    "views": sorted(m for m in ("annotations.views.judgements", "annotations.apis",
                                "ranking.views.runs", "reports.views") if m in sys.modules),
    "scipy.stats": "scipy.stats" in sys.modules,
}))
"""


def test_the_wsgi_application_imports_every_view_and_not_scipy_stats():
    seen = fresh_interpreter_json(
        SCRIPT,
        DJANGO_SETTINGS_MODULE="humaneval.settings",
        DJANGO_SECRET_KEY=TEST_SECRET_KEY,
    )
    assert seen["views"] == [
        "annotations.apis",
        "annotations.views.judgements",
        "ranking.views.runs",
        "reports.views",
    ]
    assert seen["scipy.stats"] is False


WARM_SCRIPT = """
import json, sys, time
import humaneval.wsgi
from django.db import connections
from django.template import engines
from django.urls import get_resolver, reverse
from django.utils.translation import trans_real
engine = engines["django"].engine
# django-template-partials wraps Django's cached loader
cached = next(
    loader
    for top in engine.template_loaders
    for loader in [top, *getattr(top, "loaders", [])]
    if hasattr(loader, "get_template_cache")
)
resolver = get_resolver()
# what a first page would otherwise build: timed, so the test can tell it was ready
started = time.process_time()
reverse("annotations:worker-start", args=["a-campaign"])
engine.get_template("annotations/shared/consent.html")
print(json.dumps({
    "templates": len(cached.get_template_cache),
    "consent page cached": any(
        "annotations/shared/consent.html" in str(key) for key in cached.get_template_cache
    ),
    "reverse tables": "_populated" in vars(resolver) and resolver._populated,
    "catalogues": sorted(trans_real._translations),
    "numpy.random": "numpy.random" in sys.modules,
    "langcodes": "langcodes" in sys.modules,
    "connections opened": [c.alias for c in connections.all() if c.connection is not None],
    "first page's lookups ms": (time.process_time() - started) * 1000,
}))
"""


def test_the_wsgi_application_is_warm_before_its_first_request():
    """What the pages build on first use (URL tables, every project template, the interface
    languages' catalogues, numpy's generators, langcodes' data) is built when the process
    starts, before gunicorn forks (``humaneval.warm``): a cold worker process spent about
    0.3 s of CPU on its first entry, consent and task, just as a crowd arrives. The
    database is not touched: a connection opened before the fork would be shared."""
    seen = fresh_interpreter_json(
        WARM_SCRIPT,
        DJANGO_SETTINGS_MODULE="humaneval.settings",
        DJANGO_SECRET_KEY=TEST_SECRET_KEY,
    )
    assert seen["templates"] >= 50 and seen["consent page cached"], seen
    assert seen["reverse tables"] is True
    assert seen["catalogues"] == ["de", "en", "es", "fr"]
    assert seen["numpy.random"] and seen["langcodes"]
    assert seen["connections opened"] == []
    assert seen["first page's lookups ms"] < 20, seen


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_gunicorn_with_preload_serves_pages_from_every_worker(tmp_path):
    """``make serve``'s shape: gunicorn imports the application once (``--preload``) and
    forks workers that answer at once; no request is the first to import the views."""
    import time
    import urllib.error
    import urllib.request

    gunicorn = Path(sys.executable).with_name("gunicorn")
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "humaneval.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": TEST_SECRET_KEY,
        "DJANGO_SECURE_SSL_REDIRECT": "false",
    }
    server = subprocess.Popen(
        [
            str(gunicorn),
            "humaneval.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--preload",
            "--log-level",
            "warning",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        statuses: list[int] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(statuses) < 6:
            # An API page: it needs neither the database nor collected static files.
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/campaigns/", timeout=10
                ) as answer:
                    statuses.append(answer.status)
            except urllib.error.HTTPError as refused:
                statuses.append(refused.code)
            except OSError:
                time.sleep(0.2)
        assert statuses == [401] * 6
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0].decode(errors="replace")
    assert "Traceback" not in output, output


EXAMPLE = REPO / "deploy" / "systemd" / "humaneval.env.example"
UNITS = sorted((REPO / "deploy" / "systemd").glob("*.service"))
DEVELOPMENT_KEY = "insecure-dev-key-change-me-in-production-0123456789abcdef"


def _one_line_refusal(stderr: str, *, naming: str) -> None:
    """What every refused start prints: one line, no traceback, no server path."""
    refusals = [line for line in stderr.splitlines() if line.startswith("humaneval: ")]
    assert len(refusals) == 1 and naming in refusals[0], stderr
    assert "Traceback" not in stderr
    assert str(REPO) not in stderr and "site-packages" not in stderr


@pytest.mark.parametrize(
    ("configured", "reason"),
    [
        pytest.param({}, "is not set", id="nothing set"),
        pytest.param(
            {"DJANGO_DEBUG": "true", "DJANGO_SECRET_KEY": DEVELOPMENT_KEY},
            "is a public key",
            id="DEBUG on, the development key",
        ),
        pytest.param(
            {"DJANGO_SECRET_KEY": "change-me-to-50-random-characters"},
            "is still the example's placeholder",
            id="the old placeholder",
        ),
        pytest.param({"DJANGO_SECRET_KEY": "s3cr3t-but-short"}, "is too weak", id="too short"),
        pytest.param({"DJANGO_SECRET_KEY": "ab" * 40}, "is too weak", id="too few characters"),
        pytest.param(
            {"DJANGO_SECRET_KEY": "django-insecure-" + "q7Wx" * 12},
            "is a public key",
            id="Django's insecure prefix",
        ),
        pytest.param(
            {"DJANGO_DEBUG": "true", "DJANGO_SECRET_KEY": ""}, "is not set", id="an empty key"
        ),
        pytest.param({"DJANGO_SECRET_KEY": "abcde" * 10}, "is guessable", id="a repeated pattern"),
        pytest.param(
            {"DJANGO_SECRET_KEY": "wsgi-test-" + "k" * 50}, "is guessable", id="words padded out"
        ),
    ],
)
def test_a_wsgi_server_refuses_a_missing_public_or_weak_key_in_one_line(configured, reason):
    """gunicorn imports ``humaneval.wsgi``: with no key, the public development key (even
    with DEBUG on), the example's old placeholder, a key ``check --deploy`` calls weak or
    a guessable one it passes, it refuses to start (exit 3, gunicorn's boot error), saying
    in one line what to set. It used to serve on the development key, and then on
    ``"abcde" * 10``: the key signs worker session tokens, so anyone could forge any
    worker's session."""
    started = run_python("-c", "import humaneval.wsgi", env=start_environment(**configured))
    assert started.returncode == 3, started.stderr
    _one_line_refusal(started.stderr, naming=f"DJANGO_SECRET_KEY {reason}")
    assert "50 or more random characters" in started.stderr


def test_a_wsgi_server_with_a_real_key_runs_with_debug_off_unless_told_otherwise():
    env = start_environment(DJANGO_SECRET_KEY=TEST_SECRET_KEY)
    script = (
        "import json, humaneval.wsgi; from django.conf import settings; "
        "print(json.dumps(settings.DEBUG))"
    )
    ran = run_python("-c", script, env=env)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout.splitlines()[-1]) is False
    told = run_python("-c", script, env=env | {"DJANGO_DEBUG": "true"})
    assert json.loads(told.stdout.splitlines()[-1]) is True


LOADED_FIRST = (
    "import json, django; django.setup(); import humaneval.wsgi; "
    "from django.conf import settings; print(json.dumps(settings.DEBUG))"
)


@pytest.mark.parametrize(
    "configured",
    [
        pytest.param({}, id="nothing set"),
        pytest.param({"DJANGO_SECRET_KEY": TEST_SECRET_KEY}, id="a real key"),
    ],
)
def test_a_server_whose_settings_were_loaded_first_is_refused_unless_marked(configured):
    """A gunicorn.conf.py or an APM wrapper that calls ``django.setup()`` before gunicorn
    imports ``humaneval.wsgi``: the settings were loaded as a development process (DEBUG
    on by default, the public development key allowed). It used to serve so; it is
    refused in one line saying to set the mark, and with the mark it runs as production."""
    refused = run_python("-c", LOADED_FIRST, env=start_environment(**configured))
    assert refused.returncode == 3, refused.stderr
    _one_line_refusal(refused.stderr, naming="HUMANEVAL_PRODUCTION_PROCESS=true")
    marked = start_environment(HUMANEVAL_PRODUCTION_PROCESS="true", **configured)
    ran = run_python("-c", LOADED_FIRST, env=marked)
    if "DJANGO_SECRET_KEY" in configured:
        assert ran.returncode == 0, ran.stderr
        assert json.loads(ran.stdout.splitlines()[-1]) is False
    else:
        assert ran.returncode == 3
        _one_line_refusal(ran.stderr, naming="DJANGO_SECRET_KEY is not set.")


def _gunicorn(tmp_path: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_command(
        [str(Path(sys.executable).with_name("gunicorn")), "humaneval.wsgi:application", *args],
        env=env | {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"},
    )


def test_gunicorn_with_a_config_that_sets_django_up_first_is_refused(tmp_path):
    """The same with a real gunicorn and its own config file calling ``django.setup()``:
    it used to serve DEBUG pages signed with the development key.

    Such a config replaces the project's, whose master checks first; each worker then
    refuses as it loads the application. With two or more workers their exits can race
    gunicorn's own shutdown into a ``HaltServer`` traceback and exit 1 instead of 3 (in
    gunicorn, not here: the CI hit it once under load), so that case asserts the refusal
    and leaves the exit status to gunicorn."""
    config = tmp_path / "gunicorn.conf.py"
    config.write_text("import django\ndjango.setup()\n")
    bind = f"127.0.0.1:{_free_port()}"
    for preload in (["--preload"], ["--workers", "1"], ["--workers", "2"]):
        ran = _gunicorn(
            tmp_path, "-c", str(config), "--bind", bind, *preload, env=start_environment()
        )
        assert "HUMANEVAL_PRODUCTION_PROCESS=true" in ran.stderr
        if preload == ["--workers", "2"]:
            assert ran.returncode in (1, 3), ran.stderr
            continue
        assert ran.returncode == 3, ran.stderr
        assert "Traceback" not in ran.stderr


def test_gunicorn_without_preload_refuses_once_with_its_boot_error(tmp_path):
    """Without ``--preload`` every worker loaded the application, refused, and the
    workers' exits raced the master's shutdown into a HaltServer traceback with exit 1;
    the master now checks first (gunicorn.conf.py): one line, exit 3."""
    bind = f"127.0.0.1:{_free_port()}"
    ran = _gunicorn(tmp_path, "--bind", bind, "--workers", "3", env=start_environment())
    assert ran.returncode == 3, ran.stderr
    _one_line_refusal(ran.stderr, naming="DJANGO_SECRET_KEY is not set.")
    assert "Booting worker" not in ran.stderr


def test_the_development_server_keeps_the_development_defaults(tmp_path):
    """``make run``: Django's runserver loads the settings before the WSGI module, with
    no mark. It keeps DEBUG on (its technical 404 page) and the development key, and adds
    nothing to the environment its children inherit."""
    import time
    import urllib.error
    import urllib.request

    port = _free_port()
    env = start_environment(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    page = ""
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not page:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/", timeout=10)
            except urllib.error.HTTPError as answer:
                page = answer.read().decode()
            except OSError:
                time.sleep(0.2)
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0].decode(errors="replace")
    assert "Using the URLconf defined in" in page, output  # DEBUG's technical 404
    assert "humaneval:" not in output
    ran = run_python(
        "-c",
        "import django.core.management.commands.runserver, django; django.setup(); "
        "import os, humaneval.wsgi; print('HUMANEVAL_PRODUCTION_PROCESS' in os.environ)",
        env=start_environment(),
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip().splitlines()[-1] == "False"


def test_the_systemd_example_refuses_to_start_until_a_key_is_written():
    """``deploy/systemd/humaneval.env.example`` as shipped: every unit refuses (its key
    is empty, not a placeholder that looks set); with a key written in, it starts."""
    shipped = dict(
        line.split("=", 1)
        for line in EXAMPLE.read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert shipped["DJANGO_SECRET_KEY"] == ""
    assert shipped["HUMANEVAL_PRODUCTION_PROCESS"] == "true"
    local = shipped | {"DATABASE_URL": "sqlite:///:memory:", "CACHE_URL": "locmemcache://"}
    check = "from django.conf import settings; settings.DEBUG; print('started')"
    refused = run_python("-c", check, env=start_environment(**local))
    assert refused.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in refused.stderr
    written = start_environment(**local | {"DJANGO_SECRET_KEY": TEST_SECRET_KEY})
    assert run_python("-c", check, env=written).stdout.strip() == "started"


def test_a_celery_worker_under_systemd_refuses_in_one_line_and_is_not_restarted(tmp_path):
    """The worker and beat units: a refused start was an 88-line traceback every two
    seconds, for ever. It is one line and exit 3, which every unit does not restart on."""
    celery = str(Path(sys.executable).with_name("celery"))
    marked = {"HUMANEVAL_PRODUCTION_PROCESS": "true"}
    for program, env in (
        (["worker", "--pool=solo"], marked),
        (["beat"], marked),
        (["worker", "--pool=solo"], {"DJANGO_DEBUG": "false"}),  # started by hand
    ):
        ran = run_command(
            [celery, "-A", "humaneval", *program],
            env=start_environment(PYTHONPATH=str(REPO), **env),
            cwd=tmp_path,
        )
        assert ran.returncode == 3, ran.stderr
        _one_line_refusal(ran.stderr, naming="DJANGO_SECRET_KEY is not set.")
    for unit in UNITS:
        assert "\nRestartPreventExitStatus=3\n" in unit.read_text(), unit.name


def test_debug_on_in_the_checkouts_env_file_is_ignored_by_a_production_process(tmp_path):
    """``.env`` is read where the environment is silent; a production process used to
    take ``DJANGO_DEBUG=true`` from it and serve DEBUG pages. It now says, in one line,
    that it ignores it; a development process still reads it. (A copy of the project
    package, so that its ``.env`` is in a checkout of its own.)"""
    shutil.copytree(REPO / "humaneval", tmp_path / "humaneval")
    (tmp_path / ".env").write_text("DJANGO_DEBUG=true\nDJANGO_SECRET_KEY=" + TEST_SECRET_KEY + "\n")
    script = "from django.conf import settings; print(settings.DEBUG, settings.SECRET_KEY[:5])"
    env = start_environment(PYTHONPATH=f"{tmp_path}{os.pathsep}{REPO}")
    production = run_python(
        "-c", script, env=env | {"HUMANEVAL_PRODUCTION_PROCESS": "true"}, cwd=tmp_path
    )
    assert production.returncode == 0, production.stderr
    assert production.stdout.split() == ["False", TEST_SECRET_KEY[:5]]
    _one_line_refusal(production.stderr, naming="DJANGO_DEBUG=true in .env is ignored")
    told = env | {"HUMANEVAL_PRODUCTION_PROCESS": "true", "DJANGO_DEBUG": "true"}
    assert run_python("-c", script, env=told, cwd=tmp_path).stdout.split()[0] == "True"
    development = run_python("-c", script, env=env, cwd=tmp_path)
    assert development.stdout.split()[0] == "True" and development.stderr == ""


def test_a_server_has_no_development_mode_but_runserver():
    """A WSGI server cannot be told out of production: the mark set to false, or
    ``runserver`` spoofed in its command line, used to serve DEBUG pages on the public
    development key. Only Django's runserver command, running, keeps the defaults."""
    for env, code in (
        (start_environment(HUMANEVAL_PRODUCTION_PROCESS="false"), "import humaneval.wsgi"),
        (start_environment(), "import sys; sys.argv[1:] = ['runserver']; import humaneval.wsgi"),
    ):
        refused = run_python("-c", code, env=env)
        assert refused.returncode == 3, refused.stderr
        _one_line_refusal(refused.stderr, naming="DJANGO_SECRET_KEY is not set.")


def test_django_s_own_wsgi_entry_point_under_a_config_of_ones_own_is_refused(tmp_path):
    """``gunicorn 'django.core.wsgi:get_wsgi_application()'`` with an operator's config
    (not this repository's gunicorn.conf.py) and no mark loads the settings as a
    development process; it used to serve DEBUG pages signed with the development key.
    The first middleware refuses when the handler is built."""
    config = tmp_path / "ops.conf.py"
    config.write_text("workers = 2\n")
    ran = run_command(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "-c",
            str(config),
            "django.core.wsgi:get_wsgi_application()",
            "--bind",
            f"127.0.0.1:{_free_port()}",
            "--preload",
        ],
        env=start_environment(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"),
    )
    assert ran.returncode == 3, ran.stderr
    _one_line_refusal(ran.stderr, naming="a WSGI server is starting with DEBUG on by default")


def test_make_deploy_cannot_be_told_out_of_production(tmp_path):
    """``make deploy HUMANEVAL_PRODUCTION_PROCESS=false``: a command-line variable used
    to beat the target's export, so deploy (and serve) ran as development processes."""
    ran = run_command(
        [
            "make",
            "-o",
            ".venv/.installed",
            "-o",
            "messages",
            "deploy",
            "HUMANEVAL_PRODUCTION_PROCESS=false",
            f"PY={sys.executable}",
        ],
        env=start_environment(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"),
    )
    assert ran.returncode != 0
    assert "humaneval: DJANGO_SECRET_KEY is not set." in ran.stderr
    assert not (tmp_path / "db.sqlite3").exists()  # refused before migrating


def test_every_unit_marks_its_command_itself_and_gunicorn_reads_the_repositorys_config():
    """systemd's EnvironmentFile= overrides Environment=: a mark set there could be
    undone by the env file. The units set it on the command line instead."""
    for unit in UNITS:
        start = next(
            line for line in unit.read_text().splitlines() if line.startswith("ExecStart=")
        )
        assert start.startswith("ExecStart=/usr/bin/env HUMANEVAL_PRODUCTION_PROCESS=true "), unit
        if "gunicorn" in start:
            assert " -c /srv/humaneval/gunicorn.conf.py " in start
