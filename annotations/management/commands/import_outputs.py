"""``manage.py import_outputs <file-or-folder> --campaign <slug>``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.importing.outputs import outputs_import_into
from common.errors import DomainError


class Command(BaseCommand):
    help = (
        "Import system outputs from a CSV (item_id,input,system,output), a JSONL file "
        "(one object per line with those keys) or a folder of E2E <system>.tsv files. "
        "The campaign is created when missing. All or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument("--campaign", required=True, help="Campaign slug.")
        parser.add_argument(
            "--language",
            default="",
            help="BCP 47 language of the outputs where the file gives none (e.g. de).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        start = time.perf_counter()
        try:
            campaign, created, summary = outputs_import_into(
                campaign_slug=options["campaign"],
                path=options["path"],
                language=options["language"],
            )
        except DomainError as exc:
            raise CommandError(f"Import failed, nothing was written: {exc}") from exc
        self.stdout.write(
            f"Imported {summary.file} into campaign '{campaign.slug}'"
            f"{' (created)' if created else ''}:\n"
            f"  systems (new):          {summary.systems}\n"
            f"  items (new):            {summary.items}\n"
            f"  outputs:                {summary.outputs}\n"
            f"  identical-output groups:{summary.identical_groups:>2}\n"
            + (
                f"  systems named from participants.tsv: {summary.systems_named}\n"
                if summary.systems_named
                else ""
            )
            + f"  time: {time.perf_counter() - start:.1f} s"
        )
        for warning in summary.warnings:
            self.stderr.write(f"Warning: {warning}")
        if summary.systems_not_in_tasks:
            self.stderr.write(
                "Warning: the tasks were built before; no task shows "
                f"{', '.join(summary.systems_not_in_tasks)} yet. Rebuild the tasks "
                f"(manage.py build_tasks {campaign.slug} --rebuild), or these systems will never be judged."
            )
