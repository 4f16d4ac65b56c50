"""The web stack starts the embedded beat (common.middleware.EmbeddedBeatMiddleware): once
per process, as the middleware loads, then out of every request's way; a management
command starts none, nor does a web process with a broker."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import MiddlewareNotUsed
from django.core.handlers.wsgi import WSGIHandler
from django.test import Client

from common import jobs
from common.middleware import EmbeddedBeatMiddleware
from tests.fresh_interpreter import TEST_SECRET_KEY, fresh_interpreter_json


def test_the_middleware_starts_the_beat_and_steps_aside(monkeypatch, settings) -> None:
    assert "common.middleware.EmbeddedBeatMiddleware" in settings.MIDDLEWARE
    starts: list[int] = []

    def start() -> bool:
        starts.append(1)
        return True

    monkeypatch.setattr(jobs, "beat_start", start)
    with pytest.raises(MiddlewareNotUsed):
        EmbeddedBeatMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]
    assert starts == [1]


@pytest.mark.django_db
def test_requests_without_a_broker_start_one_beat_thread(monkeypatch, settings) -> None:
    settings.JOBS_IN_THREAD = True
    settings.EMBEDDED_BEAT = True
    monkeypatch.setattr(jobs, "_beat_thread", None)
    release = threading.Event()
    loops: list[str] = []

    def loop(stopped: threading.Event) -> None:
        loops.append(threading.current_thread().name)
        release.wait(timeout=30)

    monkeypatch.setattr(jobs, "_beat_run", loop)
    try:
        for _ in range(2):  # two web stacks (two clients), two requests each
            client = Client()
            client.get("/accounts/login/")
            client.get("/accounts/login/")
        thread = jobs._beat_thread
        assert thread is not None and thread.name == "embedded-beat" and thread.daemon
    finally:
        release.set()
        if jobs._beat_thread is not None:
            jobs._beat_thread.join(timeout=30)
    assert loops == ["embedded-beat"]


@pytest.mark.django_db
def test_a_live_server_in_the_test_session_starts_no_beat(monkeypatch, settings) -> None:
    """A live server (pytest-django's, session-wide) loads the middleware before any
    test's own settings apply, with the defaults of a process without a broker: jobs in
    threads. The session keeps the embedded beat off, so no real beat thread sweeps the
    test database behind the tests' backs."""
    monkeypatch.setattr(jobs, "_beat_thread", None)
    loops: list[str] = []
    monkeypatch.setattr(jobs, "_beat_run", lambda stopped: loops.append("beat"))
    settings.JOBS_IN_THREAD = True  # the default without a broker
    WSGIHandler()  # what the live server's thread builds
    assert jobs._beat_thread is None
    assert loops == []


def test_no_real_beat_runs_in_the_test_process() -> None:
    """Every module is collected (imported) in every pytest process before any test runs:
    a web stack built at import (tests/test_api_schemathesis.py) started a real beat
    there, before the session switched it off. Its ticks swept the test databases from
    their own thread: a locked SQLite database stalled a browser test's request, and its
    logged tracebacks (which parse source to place their carets) raced a test's own
    ``ast.parse`` into CPython 3.11's "AST constructor recursion depth mismatch"."""
    beats = [t for t in threading.enumerate() if t.name == "embedded-beat" and t.is_alive()]
    assert beats == []


SCRIPT = """
import json, threading
import django
django.setup()
from django.core.management import call_command
call_command("check", verbosity=0)
after_command = any(t.name == "embedded-beat" for t in threading.enumerate())
import humaneval.wsgi
after_wsgi = sum(t.name == "embedded-beat" for t in threading.enumerate())
print(json.dumps({"command": after_command, "wsgi": after_wsgi}))
"""


@pytest.mark.parametrize(
    ("broker", "expected"),
    [("", {"command": False, "wsgi": 1}), ("redis://127.0.0.1:1/0", {"command": False, "wsgi": 0})],
    ids=["without a broker", "with a broker"],
)
def test_a_web_process_starts_the_beat_a_management_command_does_not(broker, expected) -> None:
    seen = fresh_interpreter_json(
        SCRIPT,
        DJANGO_SETTINGS_MODULE="humaneval.settings",
        CELERY_BROKER_URL=broker,
        CELERY_TASK_ALWAYS_EAGER="false" if broker else "true",
        HUMANEVAL_JOBS_IN_THREAD="true",
        HUMANEVAL_EMBEDDED_BEAT="true",
        # The settings are loaded before humaneval.wsgi: a server says it is one.
        HUMANEVAL_PRODUCTION_PROCESS="true",
        DJANGO_SECRET_KEY=TEST_SECRET_KEY,
    )
    assert seen == expected
