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
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fresh_interpreter import REPO, fresh_interpreter_json

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
        DJANGO_SECRET_KEY="wsgi-test-" + "k" * 50,
    )
    assert seen["views"] == [
        "annotations.apis",
        "annotations.views.judgements",
        "ranking.views.runs",
        "reports.views",
    ]
    assert seen["scipy.stats"] is False


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
        "DJANGO_SECRET_KEY": "wsgi-test-" + "k" * 50,
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


def _without_debug_settings() -> dict[str, str]:
    """This process's environment without DJANGO_DEBUG, DJANGO_SECRET_KEY or the
    production-process mark."""
    drop = ("DJANGO_DEBUG", "DJANGO_SECRET_KEY", "HUMANEVAL_PRODUCTION_PROCESS")
    return {k: v for k, v in os.environ.items() if not k.startswith(drop)} | {
        "DJANGO_SETTINGS_MODULE": "humaneval.settings"
    }


def _python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


EXAMPLE = REPO / "deploy" / "systemd" / "humaneval.env.example"


@pytest.mark.parametrize(
    "configured",
    [
        pytest.param({}, id="nothing set"),
        pytest.param({"DJANGO_DEBUG": "true"}, id="DEBUG on, the development key"),
        pytest.param(
            {"DJANGO_SECRET_KEY": "change-me-to-50-random-characters"}, id="the old placeholder"
        ),
        pytest.param({"DJANGO_SECRET_KEY": "s3cr3t-but-short"}, id="too short"),
        pytest.param({"DJANGO_SECRET_KEY": "ab" * 40}, id="too few characters"),
        pytest.param(
            {"DJANGO_SECRET_KEY": "django-insecure-" + "q7Wx" * 12}, id="Django's insecure prefix"
        ),
        pytest.param({"DJANGO_DEBUG": "true", "DJANGO_SECRET_KEY": ""}, id="an empty key"),
    ],
)
def test_a_wsgi_server_refuses_a_missing_public_or_weak_key_in_one_line(configured):
    """gunicorn imports ``humaneval.wsgi``: with no key, the public development key (even
    with DEBUG on), the example's old placeholder or a key ``check --deploy`` calls weak,
    it refuses to start (exit 3, gunicorn's boot error), saying in one line what to set,
    with no traceback and no server path. It used to serve on the development key, which
    signs worker session tokens: anyone could forge any worker's session."""
    started = _python("import humaneval.wsgi", _without_debug_settings() | configured)
    assert started.returncode == 3, started.stderr
    assert "DJANGO_SECRET_KEY" in started.stderr
    assert "50 or more random characters" in started.stderr
    assert "Traceback" not in started.stderr
    assert str(REPO) not in started.stderr and "site-packages" not in started.stderr
    assert len(started.stderr.strip().splitlines()) == 1


def test_a_wsgi_server_with_a_real_key_runs_with_debug_off_unless_told_otherwise():
    env = _without_debug_settings() | {"DJANGO_SECRET_KEY": "wsgi-test-" + "k" * 50}
    script = (
        "import json, humaneval.wsgi; from django.conf import settings; "
        "print(json.dumps(settings.DEBUG))"
    )
    ran = _python(script, env)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout.splitlines()[-1]) is False
    told = _python(script, env | {"DJANGO_DEBUG": "true"})
    assert json.loads(told.stdout.splitlines()[-1]) is True


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
    refused = _python(check, _without_debug_settings() | local)
    assert refused.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in refused.stderr
    written = local | {"DJANGO_SECRET_KEY": "Qe7-" + "x9Zr" * 14}
    assert _python(check, _without_debug_settings() | written).stdout.strip() == "started"


def test_manage_py_keeps_the_development_default_and_its_environment():
    """``make run``'s runserver configures its settings before importing the WSGI module:
    DEBUG stays on, and nothing is added to the environment its children inherit."""
    script = (
        "import json, os, django; django.setup(); import humaneval.wsgi; "
        "from django.conf import settings; "
        "print(json.dumps([settings.DEBUG, 'HUMANEVAL_PRODUCTION_PROCESS' in os.environ]))"
    )
    ran = _python(script, _without_debug_settings())
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout.splitlines()[-1]) == [True, False]
