from django.apps import AppConfig


class RankingConfig(AppConfig):
    name = "ranking"
    verbose_name = "Rankings"

    def ready(self) -> None:
        # Register the Celery tasks (beat's schedule names ranking.sweep_runs) and bind the
        # pages and the API to the services once, at start-up.
        from . import apis, tasks, views  # noqa: F401
