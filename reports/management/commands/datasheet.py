"""Print a campaign's evaluation datasheet: ``manage.py datasheet e2e --format latex``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.selectors.campaigns import campaign_by_slug
from common.errors import DomainError
from reports.exports.datasheet import FORMATS, datasheet_render
from reports.selectors.datasheet import datasheet_for


class Command(BaseCommand):
    help = "Print a campaign's human evaluation datasheet (HEDS) as Markdown, LaTeX or JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="The campaign's slug.")
        parser.add_argument("--format", choices=list(FORMATS), default="markdown")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            campaign = campaign_by_slug(options["campaign"])
        except DomainError as exc:
            raise CommandError(str(exc)) from exc
        sheet = datasheet_for(campaign=campaign)
        self.stdout.write(datasheet_render(sheet, options["format"]), ending="")
