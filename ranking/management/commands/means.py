"""The MTG-style table: ``python manage.py means SLUG [--criterion fluency] [--csv]``."""

from __future__ import annotations

import math
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.selectors.campaigns import campaign_by_slug, campaign_criterion_get
from common.errors import DomainError
from ranking.exports import means as means_exports
from ranking.exports.runs import THIN_MARK
from ranking.selectors import means as means_selectors
from ranking.selectors.runs import CONFIDENCE_RANGE, DEFAULT_CONFIDENCE


class Command(BaseCommand):
    help = (
        "Each criterion's mean rating per system and language (and over all languages), "
        "with Student t intervals, beside the latest ranking run's rank range (any method, named) on the same "
        "language. --csv writes the table as CSV."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("--criterion", default="", help="one criterion (default: all)")
        parser.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE)
        parser.add_argument("--csv", action="store_true", help="CSV instead of a text table")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["criterion"]
        try:
            if name:
                campaign, _ = campaign_criterion_get(
                    campaign_slug=options["campaign"], criterion_name=name
                )
            else:
                campaign = campaign_by_slug(options["campaign"])
        except DomainError as exc:
            raise CommandError(str(exc)) from exc
        low, high = CONFIDENCE_RANGE
        if not low <= options["confidence"] <= high:
            raise CommandError(
                f"--confidence is between {low} and {high}, e.g. {DEFAULT_CONFIDENCE}."
            )
        table = means_selectors.campaign_means(
            campaign=campaign, confidence=options["confidence"], criterion=name
        )
        if options["csv"]:
            self.stdout.write(means_exports.means_csv(table), ending="")
            return
        for block in table.criteria:
            self.stdout.write(f"\n{block.criterion} ({block.ratings} ratings)")
            if not block.systems:
                self.stdout.write("  no ratings yet")
                continue
            width = max(len(s) for s in block.systems)
            heads = [c or "all" for c in block.columns]
            if block.geometric:
                self.stdout.write(
                    "  geometric means (magnitude estimates: the mean of the logarithms, "
                    "turned back; scores of 0 left out)"
                )
            if block.ranks:
                self.stdout.write(
                    "  means of ranks stored as k + 1 - rank (a relative ranking: higher is "
                    "better), not ratings"
                )
            self.stdout.write("  " + "system".ljust(width) + "".join(f"  {h:>32}" for h in heads))
            for system, cells in block.rows():
                shown = []
                for cell in cells:
                    if cell is None:
                        shown.append(f"  {'-':>32}")
                        continue
                    interval = "" if math.isnan(cell.low) else f" ({cell.low:.2f}-{cell.high:.2f})"
                    if cell.no_spread:
                        interval = " (all equal)"
                    thin = f" {THIN_MARK}" if cell.thin else ""
                    rank = f" [{cell.ranked.rank_range}{thin}]" if cell.ranked else ""
                    shown.append(f"  {f'{cell.mean:.2f}{interval} n={cell.n}{rank}':>32}")
                self.stdout.write("  " + system.ljust(width) + "".join(shown))
            for column, run, why in block.unmet_runs:
                self.stdout.write(
                    f"  {column or 'all'}: run {run.pk} does not meet the minimum-data rule, so "
                    f"its rank ranges come without clusters: {why}"
                )
            if block.any_thin:
                self.stdout.write(
                    f"  {THIN_MARK} fewer than {block.min_comparisons} judgements or comparisons."
                )
        self.stdout.write(
            f"\nMeans with {table.confidence:.0%} t intervals (low-high; cut at a Likert or "
            "slider scale's ends); [rank range] of the latest finished ranking run on the same "
            "language (or all items): "
            + "; ".join(
                f"{block.criterion} {column or 'all'}: run {run.pk} ({run.method})"
                for block in table.criteria
                for column, run in block.column_runs()
                if run is not None
            )
            + ". The intervals treat the ratings as independent; ratings by one worker, or "
            "of one item, are not, so they are narrower than a model of workers and items (or "
            "a bootstrap over units) would give. Ranges that overlap are not told apart."
        )
