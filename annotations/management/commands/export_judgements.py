"""Export a criterion's raw judgements: ``export_judgements <campaign> --criterion C
--format csv|jsonl|wmt [-o FILE] [--where ATTR=VALUE ...]`` (streamed, so a large campaign
needs little memory; ``--where`` keeps a slice of the items)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.core.slices import SliceError, parse_where
from annotations.exports.judgements import FORMATS, export_lines
from annotations.selectors.campaigns import campaign_criterion_get
from common.errors import DomainError


class Command(BaseCommand):
    help = "Export raw judgements as E2E-like CSV, JSONL or WMT ranking CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("--criterion", "-c", required=True, help="criterion name")
        parser.add_argument("--format", "-f", dest="fmt", choices=sorted(FORMATS), default="csv")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")
        parser.add_argument(
            "--without-excluded",
            action="store_true",
            help="leave out workers an organizer excluded",
        )
        parser.add_argument(
            "--where",
            action="append",
            default=[],
            metavar="ATTR=VALUE",
            help="only items whose attribute ATTR is VALUE (repeat for several)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            _, criterion = campaign_criterion_get(
                campaign_slug=options["campaign"], criterion_name=options["criterion"]
            )
            where = parse_where(options["where"])
        except (DomainError, SliceError) as exc:
            raise CommandError(str(exc)) from exc
        lines = export_lines(
            criterion=criterion,
            fmt=options["fmt"],
            include_excluded=not options["without_excluded"],
            where=where,
        )
        count = -1 if options["fmt"] in ("csv", "wmt") else 0
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8", newline="") as handle:
                for line in lines:
                    handle.write(line)
                    count += 1
            self.stderr.write(f"Wrote {count} rows to {options['output']}.")
        else:
            for line in lines:
                sys.stdout.write(line)
