"""Fail import jobs whose worker was lost (the same sweep celery beat runs)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from annotations.importing.jobs import import_jobs_sweep


class Command(BaseCommand):
    help = (
        "Mark import jobs failed that a worker started but never finished (killed, out of "
        "memory, restarted) or that no worker picked up; their files must be uploaded again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--stale-after",
            type=float,
            default=None,
            help="Seconds after its start before a running job counts as lost "
            "(default: IMPORT_JOB_STALE_AFTER).",
        )
        parser.add_argument(
            "--pending-timeout",
            type=float,
            default=None,
            help="Seconds a job may wait in the queue (default: IMPORT_JOB_PENDING_TIMEOUT).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ended = import_jobs_sweep(
            stale_after=options["stale_after"], pending_timeout=options["pending_timeout"]
        )
        if ended:
            self.stdout.write(
                f"Failed {len(ended)} lost import job(s): {', '.join(map(str, ended))}."
            )
        else:
            self.stdout.write("No lost import jobs.")
