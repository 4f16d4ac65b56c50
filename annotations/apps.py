from typing import Any

from django.apps import AppConfig
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


class AnnotationsConfig(AppConfig):
    name = "annotations"
    verbose_name = "Campaigns and annotations"

    def ready(self) -> None:
        # Register the Celery tasks: the import services dispatch annotations.import_job_run
        # by name, and beat's schedule names annotations.sweep_import_jobs.
        from annotations import tasks  # noqa: F401

        checks.register(shared_cache_check, checks.Tags.security, deploy=True)
