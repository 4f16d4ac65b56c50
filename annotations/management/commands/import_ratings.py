"""``manage.py import_ratings PATH --mapping NAME|FILE --campaign SLUG [--criterion NAME]
[--experts] [--preview N]``: a rating file of any shape, read through a column mapping."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.importing.mapped import mapped_import_into
from annotations.importing.mapped_criteria import mapped_preview_scales
from annotations.importing.mappings import mapping_parse, mapping_resolve
from annotations.importing.parsers.mapped import preview_mapped
from annotations.importing.parsers.mapped.mapping import Mapping
from annotations.importing.parsers.presets import PRESETS, mapping_renamed
from annotations.models import Campaign
from annotations.selectors.campaigns import campaign_find
from common.errors import DomainError


def _rows_to_preview(text: str) -> int:
    """``--preview N``: N at least 1 (0 imported the file, where a preview was asked for)."""
    try:
        rows = int(text)
    except ValueError:
        rows = 0
    if rows < 1:
        raise argparse.ArgumentTypeError(
            f"'{text[:20]}' is not a number of rows to preview (at least 1); leave --preview "
            "out to import."
        )
    return rows


def _mapping(spec: str, campaign: Campaign | None) -> Mapping:
    path = Path(spec)
    if spec.endswith(".json") or path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DomainError(f"Cannot read the mapping file {path.name} ({exc}).") from exc
        return mapping_parse(text)
    return mapping_resolve(campaign=campaign, name=spec)


class Command(BaseCommand):
    help = (
        "Import ratings with k outputs per row (CSV, TSV or JSONL) read through a column "
        "mapping: a built-in preset (" + ", ".join(PRESETS) + "), a preset saved in the "
        "campaign, or a JSON mapping file. All or nothing; errors name file, line and field."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument("--mapping", required=True, help="Preset name or JSON mapping file.")
        parser.add_argument("--campaign", required=True, help="Campaign slug (created if missing).")
        parser.add_argument(
            "--criterion", default="", help="Store the mapping's one criterion under this name."
        )
        parser.add_argument(
            "--experts",
            action="store_true",
            help="The judges are experts: the reference crowd workers are compared with.",
        )
        parser.add_argument(
            "--preview",
            type=_rows_to_preview,
            default=0,
            metavar="N",
            help="Only show the first N rows (at least 1) as parsed; write nothing.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        start = time.perf_counter()
        try:
            # The campaign's saved mappings and the presets; a campaign the import would
            # create has none saved (and is previewed without one).
            found = campaign_find(options["campaign"])
            mapping = self._renamed(_mapping(options["mapping"], found), options)
            if options["preview"]:
                self._preview(options["path"], mapping, options["preview"], found)
                return
            campaign, created, s = mapped_import_into(
                campaign_slug=options["campaign"],
                path=options["path"],
                mapping=mapping,
                experts=options["experts"],
            )
        except DomainError as exc:
            raise CommandError(f"Import failed, nothing was written: {exc}") from exc
        self.stdout.write(
            f"Imported {s.file} into campaign '{campaign.slug}'"
            f"{' (created)' if created else ''}:\n"
            f"  rows:                  {s.rows}\n"
            f"  judgements:            {s.judgements} ({', '.join(s.criteria)})\n"
            f"  skipped (skip values): {s.skipped}\n"
            f"  criteria created:      {', '.join(s.criteria_created) or '-'}\n"
            f"  workers:               {s.workers}\n"
            f"  items created:         {s.items_created}\n"
            f"  outputs created:       {s.outputs_created}\n"
            f"  texts differing:       {s.texts_differing} (output slots whose text as shown "
            "differs from the output's stored text; kept with the task)\n"
            f"  inputs filled:         {s.inputs_filled}\n"
            + "".join(f"  note: {note}\n" for note in s.notes())
            + f"  time: {time.perf_counter() - start:.1f} s"
        )

    @staticmethod
    def _renamed(mapping: Mapping, options: dict[str, Any]) -> Mapping:
        if not options["criterion"]:
            return mapping
        try:
            return mapping_renamed(mapping, options["criterion"])
        except ValueError as exc:
            raise DomainError(str(exc)) from exc

    def _preview(self, path: Path, mapping: Mapping, rows: int, campaign: Campaign | None) -> None:
        parsed = preview_mapped(path, mapping, rows=rows)
        self.stdout.write(f"{parsed.file}: {parsed.slots} slots")
        for note in mapped_preview_scales(campaign=campaign, mapping=mapping, parsed=parsed):
            self.stdout.write(f"  scale of {note}")
        for row in parsed.rows:
            for j in row.judgements:
                pairs = ", ".join(
                    f"{system}={score:g}" for system, score in zip(j.systems, j.scores, strict=True)
                )
                self.stdout.write(
                    f"  line {j.line}: item {j.item_id}, worker {j.worker_id}, "
                    f"{j.criterion}: {pairs}"
                )
            for name in row.skipped:
                self.stdout.write(f"  line {row.line}: {name} skipped")
