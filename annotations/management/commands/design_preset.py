"""Give a draft campaign one of the study's designs: ``manage.py design_preset <slug> plainme``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.selectors.campaigns import campaign_by_slug
from annotations.selectors.criteria import criteria_in_order
from annotations.services.tasks import DESIGN_PRESETS, campaign_design_preset_apply
from common.errors import DomainError


class Command(BaseCommand):
    help = "Set a campaign's set-up, outputs per task and criteria from a design preset."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="The campaign's slug.")
        parser.add_argument("preset", choices=sorted(DESIGN_PRESETS))

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            campaign = campaign_by_slug(options["campaign"])
            campaign = campaign_design_preset_apply(campaign=campaign, preset=options["preset"])
        except DomainError as error:
            raise CommandError(str(error)) from error
        criteria = ", ".join(c.name for c in criteria_in_order(campaign=campaign))
        self.stdout.write(
            f"{campaign.slug}: {DESIGN_PRESETS[options['preset']].label}; "
            f"{campaign.outputs_per_task} output(s) per task; criteria {criteria}."
        )
