"""The broker and the worker process the tests of this folder start and kill
(tests/flows/workers/processes.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from tests.flows.workers.processes import Worker, _redis_url


@pytest.fixture
def broker() -> str:
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL shared with a worker process (set DATABASE_URL); "
            "a SQLite test database lives in this process's memory"
        )
    url = _redis_url()
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except Exception as exc:
        pytest.skip(f"needs Redis at {url} ({type(exc).__name__})")
    return url


@pytest.fixture
def worker(broker: str, tmp_path: Path) -> Iterator[Worker]:
    started = Worker(broker, tmp_path / "worker.log")
    try:
        yield started
    finally:
        started.stop()
