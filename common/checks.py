"""Project-wide system checks (``manage.py check --deploy``), registered by
``annotations.apps`` (the project's checks need an installed app to register them)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks


def shared_cache_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """``check --deploy``: the sign-up, password-reset and invitation limits count in the
    cache; a per-process memory cache multiplies them by the number of gunicorn workers."""
    backend = settings.CACHES["default"]["BACKEND"]
    if settings.DEBUG or not backend.endswith(("LocMemCache", "DummyCache")):
        return []
    return [
        checks.Warning(
            "The cache is per process, so the password-reset and invitation limits are "
            "counted separately by each gunicorn worker (and reset when one restarts).",
            hint="Set CACHE_URL to a shared cache, e.g. redis://127.0.0.1:6379/1.",
            id="humaneval.W001",
        )
    ]
