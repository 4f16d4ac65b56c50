"""Adaptive design: ``python manage.py adaptive_step [SLUG] [--criterion C] [--force]``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.selectors.campaigns import campaign_by_slug, campaign_criterion_get
from common.errors import DomainError

if TYPE_CHECKING:
    from annotations.models import Criterion


class Command(BaseCommand):
    help = (
        "Add the next adaptive batch of tasks for every criterion whose tasks run low, in "
        "every live adaptive campaign (or SLUG's); --force adds one now. Celery beat runs "
        "this every minute."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", nargs="?", help="campaign slug (default: all)")
        parser.add_argument("--criterion", default="", help="one criterion (with SLUG)")
        parser.add_argument("--force", action="store_true", help="a batch now, even if not low")

    def handle(self, *args: Any, **options: Any) -> None:
        from ranking.services.adaptive import adaptive_batch_build, adaptive_step

        if options["campaign"] is None:
            if options["force"] or options["criterion"]:
                raise CommandError("--force and --criterion need a campaign slug.")
            batches = adaptive_step()
        else:
            criteria: Iterable[Criterion]
            try:
                if options["criterion"]:
                    _, one = campaign_criterion_get(
                        campaign_slug=options["campaign"], criterion_name=options["criterion"]
                    )
                    criteria = [one]
                else:
                    campaign = campaign_by_slug(options["campaign"])
                    criteria = campaign.criteria.order_by("position", "pk")
            except DomainError as exc:
                raise CommandError(str(exc)) from None
            batches = []
            try:
                for criterion in criteria:
                    batch = adaptive_batch_build(
                        criterion=criterion,
                        force=options["force"],
                        trigger="manual" if options["force"] else "auto",
                    )
                    if batch is not None:
                        batches.append(batch)
            except DomainError as exc:
                raise CommandError(str(exc)) from None
        for batch in batches:
            gaps = ", ".join(batch.decision.get("contested_gaps", [])) or "none"
            self.stdout.write(
                f"{batch.campaign.slug}/{batch.criterion.name}: batch {batch.number}, "
                f"{batch.tasks} tasks from {batch.judgements} judgements; contested: {gaps}"
                + ("; clusters stable (you can close the campaign)" if batch.stable else "")
            )
        if not batches:
            self.stdout.write("No batch needed: every criterion has open tasks.")
