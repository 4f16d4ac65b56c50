"""Rank a criterion's systems: ``python manage.py rank e2e --criterion naturalness``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.core.slices import SliceError, attribute_name_check, describe, parse_where
from annotations.selectors.campaigns import campaign_criterion_get
from common.errors import DomainError
from ranking import stats
from ranking.exports import runs as exports
from ranking.exports.runs import side_by_side
from ranking.selectors import slices
from ranking.services.slices import ranking_slices_start


def _parameter(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise CommandError(f"--param takes NAME=VALUE, not '{text}'.")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


#: the option that carries each field of a ranking request (ranking.stats.ParameterError)
_OPTIONS = {"parameters": "--param", "method": "--method"}


class Command(BaseCommand):
    """The ``rank`` command: compute one ranking run in this process and print it.

    It skips Django's system checks (``requires_system_checks = []``): they import every
    URLconf, view and API schema before the command starts: 0.15-0.25 s of a command
    that otherwise takes about two seconds. The checks still run in
    ``manage.py check`` (the tests run it, ``tests/test_deploy.py``), before ``migrate``
    (``make run`` and ``make serve`` migrate first) and in ``runserver``. The compiled
    WMT14 kernel (numba) is imported and checked only when the method is ``wmt14``.
    The run's chunks are computed here, one after the other, by the service
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
            "--where",
            action="append",
            default=[],
            metavar="ATTRIBUTE=VALUE",
            help="rank a slice: the items with this attribute value (repeatable; all must "
            "hold), e.g. --where challenge_set=scramble; 'language' is the outputs' language",
        )
        parser.add_argument(
            "--language", help="rank the tasks in this language (= --where language=TAG)"
        )
        parser.add_argument(
            "--by",
            metavar="ATTRIBUTE",
            help="rank every value of this attribute (and all items), side by side",
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
                seed=options["seed"],
            )
        except stats.ParameterError as exc:
            raise CommandError(f"{_OPTIONS.get(exc.field, '--' + exc.field)}: {exc}") from exc
        conditions = list(options["where"])
        if options["language"]:
            conditions.append(f"language={options['language']}")
        try:
            where = parse_where(conditions)
            by = attribute_name_check(options["by"]) if options["by"] else None
        except SliceError as exc:
            raise CommandError(str(exc)) from exc
        if by is not None and by in where:
            raise CommandError(f"--by {by} and --where {by}=... ask for two different things.")
        try:
            campaign, criterion = campaign_criterion_get(
                campaign_slug=options["campaign"], criterion_name=options["criterion"]
            )
            chosen: list[dict[str, str]] = [where]
            if by is not None:
                values = slices.ranking_slice_values(campaign=campaign, by=by)
                chosen += [{**where, by: value} for value in values]
            # Every slice checked before anything is computed: all or nothing.
            runs = ranking_slices_start(
                campaign=campaign,
                criterion=criterion,
                slices=chosen,
                all_or_nothing=True,
                compute_here=True,
                method=options["method"],
                runs=options["runs"],
                seed=options["seed"],
                confidence=options["confidence"],
                exclude_flagged=not options["include_excluded"],
                parameters=parameters,
            ).runs
        except slices.SliceAttributeUnknown as exc:
            raise CommandError(exc.sentence) from exc
        except DomainError as exc:
            raise CommandError(str(exc)) from exc
        titles = []
        for run in runs:
            if run.status != run.Status.DONE:
                raise CommandError(f"Ranking run {run.pk} ended {run.status}: {run.error}")
            kept, share = stats.range_coverage(run.runs, run.confidence)
            title = (
                f"{campaign.slug} / {criterion.name}: {run.method}, {run.runs:,} runs, seed "
                f"{run.seed}, ranges keeping {kept:,} of {run.runs:,} runs ({share:.1%}; "
                f"{run.confidence:.1%} asked), {run.n_judgements:,} judgements"
                + (f", slice {describe(run.where)}" if run.where else "")
            )
            titles.append(title)
            self.stdout.write(
                exports.run_export(run=run, fmt=options["format"], title=title), ending=""
            )
            if options["format"] == "table":
                note = run.stability.get("note") if run.stability else None
                if note:
                    self.stdout.write(f"\nStability: {note}")
                self.stdout.write(f"Ranking run {run.pk} stored; computed in {run.seconds:.2f} s.")
        if len(runs) > 1 and options["format"] == "table":
            self.stdout.write(side_by_side(runs))
        if plot is not None:  # the first run's (all items, or the --where slice)
            plot.write_bytes(
                exports.run_plot(run=runs[0], fmt=plot.suffix.lower()[1:], title=titles[0])
            )
            self.stderr.write(f"Plot written to {plot}")
