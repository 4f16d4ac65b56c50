from django.apps import AppConfig
from django.core import checks

from common.checks import shared_cache_check


class AnnotationsConfig(AppConfig):
    name = "annotations"
    verbose_name = "Campaigns and annotations"

    def ready(self) -> None:
        # Register the Celery tasks: the import services dispatch annotations.import_job_run
        # by name, and beat's schedule names annotations.sweep_import_jobs.
        from annotations import tasks  # noqa: F401

        checks.register(shared_cache_check, checks.Tags.security, deploy=True)
        # A password made unusable revokes the user's API token (a new password does too).
        from django.conf import settings
        from django.db.models.signals import post_save

        from annotations.services.tokens import token_revoke_if_password_unusable

        post_save.connect(
            token_revoke_if_password_unusable,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="annotations.token_revoke_if_password_unusable",
        )
