"""Shared fixtures: factories live in tests/factories.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings


@pytest.fixture(scope="session")
def e2e_dir() -> Path:
    """The released E2E data (../shared/e2e); tests using it skip when it is absent."""
    path = Path(settings.E2E_DATA_DIR)
    if not (path / "system_outputs").is_dir() or not (path / "quality.csv").is_file():
        pytest.skip(
            f"E2E data not found at {path} (set HUMANEVAL_E2E_DIR or place the released "
            "data in ../shared/e2e)"
        )
    return path


@pytest.fixture(scope="session", autouse=True)
def _no_embedded_beat():
    """No real embedded beat ticks in a test process: it would sweep the test database
    every minute from a thread of its own, racing the tests (a tick in flight makes a
    test's own tick a no-op). Session-wide, so that a live server, which loads the
    middleware before any test's settings apply, starts none either; the beat's own
    tests switch it on and replace its loop."""
    with override_settings(EMBEDDED_BEAT=False):
        yield


@pytest.fixture(autouse=True)
def _ranking_runs_in_this_thread(settings):
    """Tests see a queued ranking run finish before the request returns."""
    settings.JOBS_IN_THREAD = False


@pytest.fixture(autouse=True)
def _celery_eager(request: pytest.FixtureRequest):
    """Run Celery tasks in-process, except in tests that use the real worker.

    CI's second pass sets CELERY_BROKER_URL (so settings turn eager mode off); only the
    ``celery_worker`` tests should then reach the broker.
    """
    from humaneval.celery import app

    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    # The project's app is the current one (a test that made another Celery app, say to
    # send a message to a worker of its own, must not leave it current for the next).
    app.set_current()
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _login_throttle_reset():
    """Failed sign-ins of one test never lock out the next (every test client is 127.0.0.1).

    django-axes counts failures in the database (its database handler), which each test's
    transaction rolls back (or the flush of transactional tests empties); the cache, shared
    by the whole process, is cleared here.
    """
    yield
    from django.core.cache import caches

    for cache in caches.all(initialized_only=True):
        cache.clear()
