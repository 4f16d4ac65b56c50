"""``manage.py build_tasks <campaign> [--seed S] [--criterion NAME] [--tasks-per-item N]``."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotations.selectors.campaigns import campaign_by_slug
from annotations.services.tasks import CriterionDesign, DesignReport, tasks_build
from common.errors import DomainError

MATRIX_MAX_SYSTEMS = 12


class Command(BaseCommand):
    help = (
        "Build the campaign's tasks: for every item and criterion, tasks of k distinct "
        "systems (k = outputs per task), every system equally often (within one) and "
        "every pair of systems together as evenly as possible. By default every output "
        "of every item is judged (ceil(systems / k) tasks per item). Seeded; all or "
        "nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="Campaign slug.")
        parser.add_argument("--seed", type=int, help="Seed of the design (default: a fresh one).")
        parser.add_argument(
            "--criterion",
            action="append",
            dest="criteria",
            metavar="NAME",
            help="Build only this criterion (repeatable; default: all).",
        )
        parser.add_argument(
            "--tasks-per-item",
            type=int,
            help="Tasks per item and criterion (default: enough to judge every output once).",
        )
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="Replace existing tasks (refused once any was handed out).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            campaign = campaign_by_slug(options["campaign"])
        except DomainError as exc:
            raise CommandError(str(exc)) from exc
        start = time.perf_counter()
        try:
            report = tasks_build(
                campaign=campaign,
                seed=options["seed"],
                criteria=options["criteria"],
                tasks_per_item=options["tasks_per_item"],
                rebuild=options["rebuild"],
            )
        except DomainError as exc:
            raise CommandError(f"No tasks were built: {exc}") from exc
        self.stdout.write(format_report(report, seconds=time.perf_counter() - start))


def format_report(report: DesignReport, *, seconds: float | None = None) -> str:
    """The design report as text: totals, then the balance of each criterion."""
    lines = [
        f"Built {report.tasks} tasks for campaign '{report.campaign}' "
        f"(seed {report.seed}, {report.k} outputs per task, "
        f"{report.tasks_per_item} tasks per item and criterion)."
    ]
    if report.deleted_tasks:
        lines.append(f"  replaced {report.deleted_tasks} earlier tasks")
    for c in report.criteria:
        lines.extend(_criterion_lines(c))
    if seconds is not None:
        lines.append(f"time: {seconds:.1f} s")
    return "\n".join(lines)


def _criterion_lines(c: CriterionDesign) -> list[str]:
    lines = [
        f"criterion {c.criterion}: {c.tasks} tasks, {c.task_outputs} task outputs"
        + (
            f", {c.merged_outputs} sharing a slot with an identical output"
            if c.merged_outputs
            else ""
        )
        + (
            f", {c.skipped_items} items skipped (fewer than two outputs)" if c.skipped_items else ""
        ),
        f"  tasks per system:   min {c.count_min}, max {c.count_max}",
        f"  tasks per pair:     min {c.pair_min}, max {c.pair_max}, "
        f"mean {c.pair_mean:.2f}, std {c.pair_std:.2f}",
    ]
    if len(c.systems) <= MATRIX_MAX_SYSTEMS:
        width = max(3, *(len(str(n)) for row in c.pairs for n in row), len(str(max(c.counts))))
        codes = [f"S{i + 1}" for i in range(len(c.systems))]
        lines.append("  pairs (diagonal: tasks of the system):")
        lines.append("    " + " " * 4 + "".join(f"{code:>{width + 1}}" for code in codes))
        for i, code in enumerate(codes):
            cells = [c.counts[i] if i == j else c.pairs[i][j] for j in range(len(codes))]
            row = "".join(f"{n:>{width + 1}}" for n in cells)
            lines.append(f"    {code:<4}{row}   {c.systems[i]}")
    return lines
