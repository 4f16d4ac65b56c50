"""``manage.py import_wmt <csv> --campaign <slug> [--criterion NAME] [--experts]``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.importing.wmt import wmt_import_into
from common.errors import DomainError


class Command(BaseCommand):
    help = (
        "Import a WMT relative-ranking CSV (WMT13-16: segmentId, judgeId or judgeID, "
        "system{i}Id, system{i}rank; srclang/trglang as codes, names such as English, or -1) "
        "as finished judgements: rank as given (1 = best), score = k + 1 - rank. Rows with "
        "a rank of -1 are skipped. Missing items and outputs are created as empty "
        "placeholders. All or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument("--campaign", required=True, help="Campaign slug.")
        parser.add_argument(
            "--criterion", default="ranking", help="Criterion name (created when missing)."
        )
        parser.add_argument(
            "--experts",
            action="store_true",
            help="The judges are experts: the reference crowd workers are compared with.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        start = time.perf_counter()
        try:
            campaign, created, s = wmt_import_into(
                campaign_slug=options["campaign"],
                path=options["path"],
                criterion_name=options["criterion"],
                experts=options["experts"],
            )
        except DomainError as exc:
            raise CommandError(f"Import failed, nothing was written: {exc}") from exc
        self.stdout.write(
            f"Imported {s.file} into campaign '{campaign.slug}'"
            f"{' (created)' if created else ''}, criterion '{s.criterion}':\n"
            f"  judgements:                   {s.judgements}\n"
            f"  skipped (a rank of -1):       {s.skipped_unranked}\n"
            f"  workers:                      {s.workers}\n"
            f"  placeholder items created:    {s.items_created}\n"
            f"  systems created:              {s.systems_created}\n"
            f"  placeholder outputs created:  {s.outputs_created}\n"
            f"  time: {time.perf_counter() - start:.1f} s"
        )
