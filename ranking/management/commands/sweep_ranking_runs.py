"""Fail ranking runs whose computation was lost (the same sweep celery beat runs)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ranking.services.sweep import ranking_runs_sweep


class Command(BaseCommand):
    help = (
        "Mark ranking runs failed whose heartbeat stopped (worker killed, out of memory, "
        "restarted) or that no worker picked up; they can then be retried."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--stale-after",
            type=float,
            default=None,
            help="Seconds without a heartbeat before a running run counts as lost "
            "(default: RANKING_STALE_AFTER).",
        )
        parser.add_argument(
            "--pending-timeout",
            type=float,
            default=None,
            help="Seconds a run may wait in the queue (default: RANKING_PENDING_TIMEOUT).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ended = ranking_runs_sweep(
            stale_after=options["stale_after"], pending_timeout=options["pending_timeout"]
        )
        if ended:
            self.stdout.write(f"Failed {len(ended)} lost run(s): {', '.join(map(str, ended))}.")
        else:
            self.stdout.write("No lost runs.")
