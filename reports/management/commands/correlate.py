"""Correlate automatic metrics with human scores:
``python manage.py correlate e2e --criterion quality --metrics scores.csv --format latex``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.selectors.campaigns import campaign_criterion_get
from common.errors import DomainError
from reports.core.correlation_report import (
    report_csv,
    report_json,
    report_latex,
    report_table,
)
from reports.selectors.metrics import HUMAN_SOURCES, metric_correlations
from reports.services.metrics import metric_scores_import

FORMATS = ("table", "json", "csv", "latex")


class Command(BaseCommand):
    help = (
        "Import a metric score file (CSV or JSONL; re-importing a metric replaces it) into a "
        "campaign, then print each stored metric's system- and segment-level correlation "
        "with a criterion's human scores, with bootstrap intervals."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("--criterion", required=True)
        parser.add_argument(
            "--metrics", type=Path, help="CSV or JSONL file of metric scores (omit: stored)"
        )
        parser.add_argument("--format", default="table", choices=FORMATS)
        parser.add_argument("--resamples", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--confidence", type=float, default=0.95)
        parser.add_argument(
            "--human",
            default="mean",
            choices=HUMAN_SOURCES,
            help="system-level human score: mean of output means, or the latest ranking run",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["resamples"] < 1:
            raise CommandError("--resamples must be at least 1.")
        if not 0 < options["confidence"] < 1:
            raise CommandError("--confidence must lie between 0 and 1.")
        path: Path | None = options["metrics"]
        try:
            campaign, criterion = campaign_criterion_get(
                campaign_slug=options["campaign"], criterion_name=options["criterion"]
            )
            if path is not None:
                try:
                    data = path.read_bytes()
                except OSError as exc:
                    raise CommandError(f"{path}: cannot read the file ({exc.strerror}).") from exc
                done = metric_scores_import(campaign=campaign, data=data, file=path.name)
                for name, seg, sys in done.metrics:
                    self.stderr.write(
                        f"Imported {name}: {seg} segment-level, {sys} system-level scores."
                    )
                if done.replaced:
                    self.stderr.write(f"Replaced {done.replaced} stored scores of these metrics.")
            report = metric_correlations(
                campaign=campaign,
                criterion=criterion,
                seed=options["seed"],
                resamples=options["resamples"],
                confidence=options["confidence"],
                human=options["human"],
            )
        except DomainError as exc:
            raise CommandError(str(exc)) from exc
        fmt = options["format"]
        if fmt == "json":
            self.stdout.write(json.dumps(report_json(report), indent=2))
        elif fmt == "csv":
            self.stdout.write(report_csv(report), ending="")
        elif fmt == "latex":
            self.stdout.write(report_latex(report), ending="")
        else:
            self.stdout.write(report_table(report), ending="")
