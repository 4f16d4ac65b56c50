from django.apps import AppConfig


class RankingConfig(AppConfig):
    name = "ranking"
    verbose_name = "Rankings"

    def ready(self) -> None:
        # Register the Celery tasks: the services dispatch ranking.compute_run by name, and
        # beat's schedule names ranking.sweep_runs. (Pages and APIs load with the URLconf.)
        from ranking import tasks  # noqa: F401
