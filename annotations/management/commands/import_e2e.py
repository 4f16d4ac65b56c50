"""``manage.py import_e2e <folder> --campaign <slug>``: the E2E NLG Challenge data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.importing.ratings import e2e_import
from common.errors import DomainError


class Command(BaseCommand):
    help = (
        "Import an E2E folder: system_outputs/<label>.tsv, participants.tsv, and the raw "
        "RankME ratings quality.csv / naturalness.csv when present, with the criteria "
        "'quality' and 'naturalness'. The campaign is created when missing. All or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("folder", type=Path)
        parser.add_argument("--campaign", required=True, help="Campaign slug.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            s = e2e_import(campaign_slug=options["campaign"], folder=options["folder"])
        except DomainError as exc:
            raise CommandError(f"Import failed, nothing was written: {exc}") from exc
        out = [
            f"Imported {options['folder']} into campaign '{s.campaign}'"
            f"{' (created)' if s.campaign_created else ''}:",
            f"  systems:                  {s.systems:,}",
            f"  items:                    {s.items:,}",
            f"  outputs:                  {s.outputs:,}",
            f"  identical-output groups:  {s.identical_groups:,}",
            f"  systems named from participants.tsv: {s.systems_named}",
            f"  criteria:                 {s.criteria}",
            f"  judgements:               {s.judgements:,}",
            f"  scores:                   {s.scores:,}",
            f"  tasks:                    {s.tasks:,}",
            f"  workers:                  {s.workers:,}",
        ]
        for r in s.ratings:
            out += [
                f"  {r.criterion} ({Path(r.file).name}): {r.judgements:,} judgements, "
                f"{r.tasks:,} tasks, {r.workers:,} workers",
                f"    shown texts differing from the outputs: {r.texts_differing:,} "
                f"({r.texts_differing_whitespace_only:,} in whitespace only); "
                f"outputs created from shown texts: {r.outputs_created:,}; "
                f"items created: {r.items_created:,}",
                f"    duplicate slots (dupl_ref): {r.twin_pairs:,} twin pairs, "
                f"{r.twin_pairs_equal_scores:,} with equal scores, "
                f"{r.twin_pairs - r.twin_pairs_equal_scores:,} with different scores",
            ]
        out.append(f"  time: {s.seconds:.1f} s")
        self.stdout.write("\n".join(out))
