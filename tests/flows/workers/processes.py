"""A Celery worker in a process of its own, for the tests that kill one.

PostgreSQL is shared with the worker subprocess (a SQLite test database lives in this
process's memory) and Redis is the broker: ``HUMANEVAL_TEST_REDIS_URL``, else
``CELERY_BROKER_URL`` when it is Redis, else ``redis://127.0.0.1:6379/2``. The worker
consumes a queue of its own, so a CI worker on the same broker never sees it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[3]


def _redis_url() -> str:
    if os.environ.get("HUMANEVAL_TEST_REDIS_URL"):
        return os.environ["HUMANEVAL_TEST_REDIS_URL"]
    if str(settings.CELERY_BROKER_URL).startswith("redis://"):
        return str(settings.CELERY_BROKER_URL)
    return "redis://127.0.0.1:6379/2"


class Worker:
    """A Celery worker subprocess on a queue of its own, in its own process group."""

    def __init__(
        self,
        broker: str,
        log: Path,
        *,
        queue: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        """``queue``: another worker's (a restarted worker); ``env``: settings of its own."""
        self.queue = queue or f"h2-worker-lost-{uuid.uuid4().hex[:8]}"
        env = {
            **os.environ,
            **(env or {}),
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": broker,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "HUMANEVAL_JOBS_IN_THREAD": "false",
            # Import jobs beat often, so that tests may sweep with a 2-second lease.
            "HUMANEVAL_IMPORT_JOB_BEAT_EVERY": "0.5",
        }
        self.log = log
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "humaneval",
                "worker",
                "--pool=prefork",
                "--concurrency=1",
                "-Q",
                self.queue,
                f"--hostname={uuid.uuid4().hex[:8]}.{self.queue}@%h",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def send(self, broker: str, run_id: int) -> None:
        from celery import Celery

        sender = Celery("sender", broker=broker, set_as_current=False)  # current_app stays ours
        sender.conf.task_serializer = "json"
        sender.send_task("ranking.compute_run", args=[run_id], queue=self.queue)
        sender.close()

    def pool_children(self) -> list[int]:
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill_all(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill_all()


def _database_url() -> str:
    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{s['NAME']}"


def _wait(what: str, check: Callable[[], bool], worker: Worker, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}; worker log:\n{worker.log.read_text()[-3000:]}")
