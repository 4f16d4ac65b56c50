"""Rank a criterion's systems: ``python manage.py rank e2e --criterion naturalness``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.selectors.campaigns import campaign_criterion_get
from common.errors import DomainError
from ranking import exports, services, stats


def _parameter(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise CommandError(f"--param takes NAME=VALUE, not '{text}'.")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


class Command(BaseCommand):
    """The ``rank`` command: compute one ranking run in this process and print it.

    It skips Django's system checks (``requires_system_checks = []``): they import every
    URLconf, view and API schema before the command starts: 0.15-0.25 s of a command
    that otherwise takes about two seconds (issue 13). The checks still run in
    ``manage.py check`` (the tests run it, ``tests/test_deploy.py``), before ``migrate``
    (``make run`` and ``make serve`` migrate first) and in ``runserver``. The compiled
    WMT14 kernel (numba) is imported and checked only when the method is ``wmt14``.
    The run's chunks (issue 13) are computed here, one after the other, by the service
    the Celery chunk tasks call: the numbers are those of the same run fanned out.
    """

    requires_system_checks: list[str] = []  # see the docstring
    help = (
        "Rank the systems of a campaign's criterion (stored as a ranking run) and print "
        "the cluster table. Same seed, same data: same result."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("--criterion", required=True)
        parser.add_argument("--method", default="wmt14", choices=stats.METHODS)
        parser.add_argument("--runs", type=int, default=200)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--confidence", type=float, default=0.95)
        parser.add_argument("--format", default="table", choices=exports.FORMATS)
        parser.add_argument("--plot", type=Path, help="write the rank-range plot (.svg or .png)")
        parser.add_argument(
            "--include-excluded",
            action="store_true",
            help="keep judgements of workers an organizer excluded",
        )
        parser.add_argument(
            "--param",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a method parameter, e.g. --param sigma0=0.5 --param draw_probability=0.25",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        plot: Path | None = options["plot"]
        if plot is not None and plot.suffix.lower() not in (".svg", ".png"):
            raise CommandError("--plot must name a .svg or .png file.")
        parameters = dict(_parameter(p) for p in options["param"])
        try:
            stats.check_parameters(
                options["method"],
                parameters,
                runs=options["runs"],
                confidence=options["confidence"],
            )
        except stats.ParameterError as exc:
            raise CommandError(str(exc)) from exc
        try:
            campaign, criterion = campaign_criterion_get(
                campaign_slug=options["campaign"], criterion_name=options["criterion"]
            )
            run = services.ranking_run_create(
                campaign=campaign,
                criterion=criterion,
                method=options["method"],
                runs=options["runs"],
                seed=options["seed"],
                confidence=options["confidence"],
                exclude_flagged=not options["include_excluded"],
                parameters=parameters,
                queue=False,
            )
            services.ranking_run_compute(run=run, fan_out=False)
        except DomainError as exc:
            raise CommandError(str(exc)) from exc
        title = (
            f"{campaign.slug} / {criterion.name}: {run.method}, {run.runs} runs, seed {run.seed}, "
            f"{run.confidence:.0%} ranges, {run.n_judgements} judgements"
        )
        self.stdout.write(
            exports.run_export(run=run, fmt=options["format"], title=title), ending=""
        )
        if options["format"] == "table":
            note = run.stability.get("note") if run.stability else None
            if note:
                self.stdout.write(f"\nStability: {note}")
            self.stdout.write(f"Ranking run {run.pk} stored; computed in {run.seconds:.2f} s.")
        if plot is not None:
            plot.write_bytes(exports.run_plot(run=run, fmt=plot.suffix.lower()[1:], title=title))
            self.stderr.write(f"Plot written to {plot}")
