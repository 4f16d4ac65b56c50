"""Rank a criterion's systems: ``python manage.py rank e2e --criterion naturalness``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.core.slices import SliceError, attribute_name_check, describe, parse_where
from annotations.models import Campaign
from annotations.selectors.campaigns import campaign_criterion_get
from common.errors import DomainError
from ranking import stats
from ranking.exports import runs as exports
from ranking.exports.runs import side_by_side
from ranking.models import RankingRun
from ranking.selectors import slices
from ranking.selectors.data_rule import ranking_data_rule
from ranking.selectors.runs import RUN_DEFAULTS
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
        parser.add_argument("--method", default=RUN_DEFAULTS.method, choices=stats.METHODS)
        parser.add_argument("--runs", type=int, default=RUN_DEFAULTS.runs)
        parser.add_argument("--seed", type=int, default=RUN_DEFAULTS.seed)
        parser.add_argument("--confidence", type=float, default=RUN_DEFAULTS.confidence)
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
        parameters = _parameters(options)
        where, by = _slice_asked(options)
        try:
            campaign, criterion = campaign_criterion_get(
                campaign_slug=options["campaign"], criterion_name=options["criterion"]
            )
            # Every slice checked before anything is computed: all or nothing.
            runs = ranking_slices_start(
                campaign=campaign,
                criterion=criterion,
                slices=_slices(campaign, where, by),
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
        heading = f"{campaign.slug} / {criterion.name}"
        titles = [self._print_run(run, heading, options["format"]) for run in runs]
        if len(runs) > 1 and options["format"] == "table":
            self.stdout.write(side_by_side(runs))
        if plot is not None:  # the first run's (all items, or the --where slice)
            plot.write_bytes(
                exports.run_plot(run=runs[0], fmt=plot.suffix.lower()[1:], title=titles[0])
            )
            self.stderr.write(f"Plot written to {plot}")

    def _print_run(self, run: RankingRun, heading: str, fmt: str) -> str:
        """Print a finished run in ``fmt`` (a table with its stability note and where it is
        stored); its title, returned. A run that did not finish is the command's error."""
        if run.status != run.Status.DONE:
            raise CommandError(f"Ranking run {run.pk} ended {run.status}: {run.error}")
        title = _title(heading, run)
        self.stdout.write(exports.run_export(run=run, fmt=fmt, title=title), ending="")
        if fmt == "table":
            note = run.stability.get("note") if run.stability else None
            if note and not ranking_data_rule(run=run).enough_data:
                # as the page: no clusters on these data, so no verdict on them
                note = (
                    "not judged: the data do not meet the minimum-data rule (above), so "
                    "there are no clusters to check."
                )
            if note:
                self.stdout.write(f"\nStability: {note}")
            self.stdout.write(f"Ranking run {run.pk} stored; computed in {run.seconds:.2f} s.")
        return title


def _parameters(options: dict[str, Any]) -> dict[str, Any]:
    """The method's ``--param`` values, checked with the run's settings as a run checks them."""
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
    return parameters


def _slice_asked(options: dict[str, Any]) -> tuple[dict[str, str], str | None]:
    """The slice of ``--where`` and ``--language``, and the attribute of ``--by`` (or None)."""
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
    return where, by


def _slices(campaign: Campaign, where: dict[str, str], by: str | None) -> list[dict[str, str]]:
    """The slices to rank: ``where``, then (``--by``) ``where`` with each value of ``by``."""
    chosen = [where]
    if by is not None:
        values = slices.ranking_slice_values(campaign=campaign, by=by)
        chosen += [{**where, by: value} for value in values]
    return chosen


def _title(heading: str, run: RankingRun) -> str:
    """The run's title line: what was ranked (``heading``: the campaign and criterion),
    how, and how much of it the ranges keep."""
    kept, share = stats.range_coverage(run.runs, run.confidence)
    return (
        f"{heading}: {run.method}, {run.runs:,} runs, seed "
        f"{run.seed}, ranges keeping {kept:,} of {run.runs:,} runs ({share:.1%}; "
        f"{run.confidence:.1%} asked), {run.n_judgements:,} judgements"
        + (f", slice {describe(run.where)}" if run.where else "")
    )
