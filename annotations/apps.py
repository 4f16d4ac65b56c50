from django.apps import AppConfig


class AnnotationsConfig(AppConfig):
    name = "annotations"
    verbose_name = "Campaigns and annotations"

    def ready(self) -> None:
        # Register the Celery tasks: the import services dispatch annotations.import_job_run
        # by name, and beat's schedule names annotations.sweep_import_jobs.
        from . import tasks  # noqa: F401
