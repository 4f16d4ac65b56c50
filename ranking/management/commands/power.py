"""How many judgements separate systems: ``python manage.py power e2e --criterion quality``."""

from __future__ import annotations

import math
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.selectors.campaigns import campaign_by_slug, campaign_criterion_get
from annotations.selectors.plan import PAY_PER_HOUR_DEFAULT
from common.errors import DomainError
from ranking.selectors import power as power_selectors
from ranking.selectors.runs import DEFAULT_CONFIDENCE
from ranking.serializers.power import PowerQuery


def _number(value: float, unit: str = "") -> str:
    return "never (level so far)" if math.isinf(value) else f"{value:,.0f}{unit}"


def _checked_against(plan: power_selectors.PowerPlan) -> str:
    """How far off the figure was on simulated campaigns, as the power page says it."""
    spans = ", ".join(
        f"{low:.2f}x with {n} systems" if low == high else f"{low:.2f}-{high:.2f}x with {n} systems"
        for n, low, high in plan.measured
    )
    return (
        "A planning figure for a test of the pair's own comparisons (the normal "
        "approximation of a test of a proportion). On one simulated E2E-like campaign the "
        f"ranking's clusters separated such a pair after {spans} this figure: the ranking "
        "also links the two through the other systems. Per criterion."
    )


def _percent(value: float) -> str:
    """0.95 as 95%, 0.999 as 99.9% (not 100%)."""
    return f"{value * 100:.4g}%"


def _check_bounds(options: dict[str, Any]) -> None:
    """The options against the bounds the API and the page apply (``PowerQuery``): the
    command took a share of 0.5 or 1, a power of 0.3, a negative pay and 0 seconds a task,
    and answered "never", "inf worker hours" or a negative cost."""
    given = {
        "criterion": options["criterion"],
        "share": options["share"],
        "draws": options["draws"],
        "confidence": options["confidence"],
        "power": options["power"],
        "pay_per_hour": options["pay_per_hour"],
        "seconds_per_task": options["seconds_per_task"],
    }
    query = PowerQuery(data={k: v for k, v in given.items() if v is not None})
    if not query.is_valid():
        raise CommandError(
            "; ".join(
                f"--{name.replace('_', '-')}: {' '.join(str(e) for e in errors)}"
                for name, errors in query.errors.items()
            )
        )


class Command(BaseCommand):
    help = (
        "Power analysis. With --share: the judgements a balanced design needs to separate "
        "two systems when the better wins that share of their comparisons. Without: from "
        "the criterion's judgements so far, the judgements still needed to separate each "
        "system from the next."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("--criterion", help="criterion name (after launch: required)")
        parser.add_argument("--share", type=float, help="assumed share, e.g. 0.6 (before launch)")
        parser.add_argument("--draws", type=float, default=0.0, help="assumed share of draws")
        parser.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE)
        parser.add_argument("--power", type=float, default=power_selectors.DEFAULT_POWER)
        parser.add_argument("--pay-per-hour", type=float, default=PAY_PER_HOUR_DEFAULT)
        parser.add_argument("--seconds-per-task", type=float)
        parser.add_argument("--all-pairs", action="store_true", help="every pair, not neighbours")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            campaign = campaign_by_slug(options["campaign"])
        except DomainError as exc:
            raise CommandError(str(exc)) from exc
        _check_bounds(options)
        money = dict(
            pay_per_hour=options["pay_per_hour"], seconds_per_task=options["seconds_per_task"]
        )
        try:
            if options["share"] is not None:
                plan = power_selectors.campaign_power_plan(
                    campaign=campaign,
                    share=options["share"],
                    draws=options["draws"],
                    confidence=options["confidence"],
                    power=options["power"],
                    **money,
                )
                self.stdout.write(
                    f"{campaign.slug}: {plan.systems} systems, {plan.outputs_per_task} outputs "
                    f"per task; the better of two systems wins {plan.share:.0%} of their "
                    f"comparisons ({plan.draws:.0%} draws); {_percent(plan.confidence)} "
                    f"confidence, {_percent(plan.power)} power:\n"
                    f"  {_number(plan.comparisons_per_pair)} comparisons of the pair = "
                    f"{_number(plan.judgements)} judgements = {_number(plan.tasks)} tasks of "
                    f"{plan.judgements_per_task} judgements\n"
                    f"  {plan.hours:,.1f} worker hours at {plan.seconds_per_task:.0f} s per "
                    f"task, cost {plan.cost:,.2f} at {plan.pay_per_hour:.2f} per hour\n"
                    + _checked_against(plan)
                )
                return
            if not options["criterion"]:
                raise CommandError("Give --criterion (or --share for a plan before launch).")
            _, criterion = campaign_criterion_get(
                campaign_slug=campaign.slug, criterion_name=options["criterion"]
            )
            report = power_selectors.criterion_power(
                criterion=criterion,
                confidence=options["confidence"],
                power=options["power"],
                pairs="all" if options["all_pairs"] else "adjacent",
                **money,
            )
        except (DomainError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        if report is None:
            raise CommandError(f"Criterion '{options['criterion']}' has too few judgements yet.")
        self.stdout.write(
            f"{campaign.slug} / {report.criterion}: {report.judgements:,} judgements of "
            f"{report.systems} systems; {_percent(report.confidence)} confidence, "
            f"{_percent(report.power)} power; pairs in the judgements' order so far\n"
        )
        width = max(len(p.better) + len(p.worse) for p in report.pairs) + 4
        self.stdout.write(
            f"  {'pair':{width}s} {'share':>6s} {'have':>6s} {'more judgements':>16s}  "
            f"{'(share interval)':s}"
        )
        for p in report.pairs:
            more = (
                "no estimate: never compared"
                if not p.compared
                else "resolved"
                if p.resolved
                else _number(p.judgements_more)
            )
            span = ""
            if p.compared and not p.resolved:
                high = _number(p.judgements_high) if p.bounded else "unbounded"
                span = f"  ({_number(p.judgements_low)} to {high})"
            if p.significant:
                span += "  already significant"
            self.stdout.write(
                f"  {p.better + ' vs ' + p.worse:{width}s} "
                f"{(f'{p.share:6.1%}' if p.compared else '     -')} {p.have:6,d} {more:>16s}"
                f"{span}"
            )
        self.stdout.write(
            "\n'more judgements' take the pilot's share as the truth: the judgements after "
            f"which the pair's test reaches {_percent(report.power)} power at that share. In "
            f"brackets, the same at the ends of the share's {_percent(report.confidence)} "
            "interval ('unbounded': the interval reaches 50%, the pair may be level). "
            "'already significant': the pair's own comparisons pass the test (a test of the "
            "pair alone; the ranking's clusters may still join the two)."
        )
