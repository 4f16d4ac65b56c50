"""The production shape comes back by itself: under supervisord (``make serve``), a
gunicorn master or a Celery worker killed with SIGKILL answers again within seconds.

Runs the real deploy/supervisord.conf with gunicorn, a Celery worker and beat on loopback,
against a SQLite file (migrated first, as ``make deploy`` does) and Redis when it runs.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.fresh_interpreter import TEST_SECRET_KEY

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
REDIS_DB = 12


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _until(check: Callable[[], object], *, within: float, what: str) -> float:
    """Seconds until ``check()`` is true; fails after ``within`` seconds."""
    started = time.monotonic()
    while time.monotonic() - started < within:
        if check():
            return time.monotonic() - started
        time.sleep(0.2)
    pytest.fail(f"{what}: not within {within} s")


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def _alive(pids: list[int]) -> bool:
    return any(Path(f"/proc/{pid}").exists() for pid in pids)


class Shape:
    def __init__(self, tmp: Path) -> None:
        if not (BIN / "supervisord").exists():
            pytest.skip("supervisord is absent (pip install supervisor: make install does)")
        if not _redis_up():
            pytest.skip("Redis is not running on 127.0.0.1:6379 (.ci/run starts it)")
        self.port = _free_port()
        self.run_dir = tmp / "run"
        self.run_dir.mkdir()
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "humaneval.settings",
            "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": TEST_SECRET_KEY,
            "DJANGO_SECURE_SSL_REDIRECT": "false",
            "HUMANEVAL_VENV": str(BIN.parent),
            "HUMANEVAL_RUN_DIR": str(self.run_dir),
            "HUMANEVAL_BIND": f"127.0.0.1:{self.port}",
            "WEB_WORKERS": "1",
            "WEB_WORKER_CLASS": "sync",
            "WEB_THREADS": "1",
            "CELERY_CONCURRENCY": "1",
        }
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input"],
            cwd=REPO,
            env=self.env,
            check=True,
            capture_output=True,
            timeout=300,
        )
        self.log = (tmp / "supervisord.log").open("wb")
        self.process = subprocess.Popen(
            [str(BIN / "supervisord"), "-c", str(REPO / "deploy" / "supervisord.conf")],
            cwd=REPO,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def ctl(self, *args: str) -> str:
        result = subprocess.run(
            [str(BIN / "supervisorctl"), "-c", str(REPO / "deploy" / "supervisord.conf"), *args],
            cwd=REPO,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        return result.stdout.strip()

    def pid(self, program: str) -> int:
        out = self.ctl("pid", program)
        return int(out) if out.isdigit() else 0

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{self.port}/api/campaigns/", timeout=5
            ) as answer:
                return answer.status == 401
        except urllib.error.HTTPError as refused:
            return refused.code == 401  # the API asks for credentials: the app answered
        except OSError:
            return False

    def worker_answers(self) -> bool:
        result = subprocess.run(
            [str(BIN / "celery"), "-A", "humaneval", "inspect", "ping", "--timeout", "1"],
            cwd=REPO,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        return result.returncode == 0 and "pong" in result.stdout

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=90)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture
def shape(tmp_path: Path) -> Iterator[Shape]:
    running = Shape(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def test_a_killed_web_or_worker_process_comes_back_within_seconds(shape: Shape) -> None:
    _until(shape.answers, within=120, what="gunicorn answering after start")
    _until(shape.worker_answers, within=120, what="the Celery worker answering after start")

    master = shape.pid("web")
    assert master
    workers = _children(master)
    os.kill(master, signal.SIGKILL)
    back = _until(
        lambda: shape.pid("web") not in (0, master) and shape.answers(),
        within=60,
        what="gunicorn answering again after its master was killed",
    )
    assert back < 60
    print(f"gunicorn answered again {back:.1f} s after its master was killed")
    # The killed master's workers may answer for a moment (they share its socket): the new
    # master must still be the one running once they have gone, and answer.
    restarted = shape.pid("web")
    _until(lambda: not _alive(workers), within=30, what="the killed master's workers leaving")
    assert shape.pid("web") == restarted
    _until(shape.answers, within=30, what="the new gunicorn master answering")

    worker = shape.pid("worker")
    assert worker
    os.kill(worker, signal.SIGKILL)
    back = _until(
        lambda: shape.pid("worker") not in (0, worker) and shape.worker_answers(),
        within=60,
        what="the Celery worker answering again after it was killed",
    )
    assert back < 60
    print(f"the Celery worker answered again {back:.1f} s after it was killed")
    assert "RUNNING" in shape.ctl("status", "beat")
