"""The MTG-style table (``ranking.selectors.means``) as CSV for the page's download and
``manage.py means --csv``, and as the API's JSON (``null`` where a number is undefined).
Every CSV cell goes through :mod:`annotations.core.export_safety`."""

from __future__ import annotations

import io
import math

from annotations.core.export_safety import csv_row
from common.tables import csv_writer
from ranking.selectors.means import MeansTable

MEANS_CSV_HEADER = (
    "criterion",
    "confidence",
    "system",
    "language",
    "ratings",
    "mean",
    "ci_low",
    "ci_high",
    "rank_range",
    "cluster",
    "ranking_run",
    "mean_of",
    "caveat",
)


def _caveat(cell_thin: bool, unmet: bool, no_spread: bool) -> str:
    """What the page notes beside a cell: ``thin`` (ranked on fewer judgements or
    comparisons than the minimum), ``minimum-data rule not met`` (its run claims no
    clusters), ``all ratings equal`` (an interval of no width)."""
    words = ["thin"] if cell_thin else []
    if unmet:
        words.append("minimum-data rule not met")
    if no_spread:
        words.append("all ratings equal")
    return "; ".join(words)


def _number(value: float) -> str:
    return "" if math.isnan(value) else f"{value:.4f}"


def means_csv(table: MeansTable) -> str:
    """The table as CSV (a header line, then one line per criterion, system and column,
    ``all`` for the pooled one); cells neutralised for spreadsheets (OWASP)."""
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\n")
    writer.writerow(MEANS_CSV_HEADER)
    for block in table.criteria:
        for system, cells in block.rows():
            for column, cell in zip(block.columns, cells, strict=True):
                if cell is None:
                    continue
                run = block.runs.get(column)
                writer.writerow(
                    csv_row(
                        [
                            block.criterion,
                            table.confidence,
                            system,
                            column or "all",
                            cell.n,
                            _number(cell.mean),
                            _number(cell.low),
                            _number(cell.high),
                            cell.ranked.rank_range if cell.ranked else "",
                            cell.ranked.cluster if cell.ranked else "",
                            run.pk if run and cell.ranked else "",
                            (
                                "logarithms"
                                if block.geometric
                                else "ranks as k + 1 - rank"
                                if block.ranks
                                else "scores"
                            ),
                            _caveat(
                                cell.thin,
                                bool(cell.ranked) and column in block.unmet,
                                cell.no_spread,
                            ),
                        ]
                    )
                )
    return out.getvalue()


def means_json(table: MeansTable) -> dict[str, object]:
    """The table for the API (``null`` where a number is undefined)."""

    def num(value: float) -> float | None:
        return None if math.isnan(value) else round(value, 6)

    return {
        "campaign": table.campaign,
        "confidence": table.confidence,
        "languages": table.languages,
        "criteria": [
            {
                "criterion": block.criterion,
                "scale": block.scale,
                "scale_range": list(block.scale_range) if block.scale_range else None,
                "mean": "geometric" if block.geometric else "arithmetic",
                # the scores are ranks stored as k + 1 - rank (a relative ranking)
                "of_ranks": block.ranks,
                "columns": [c or "all" for c in block.columns],
                "runs": {(c or "all"): run.pk for c, run in block.runs.items()},
                # per column with a run: whether it meets the minimum-data rule (its
                # clusters are null when not)
                "data_rule_met": {(c or "all"): c not in block.unmet for c in block.runs},
                "systems": [
                    {
                        "system": system,
                        "cells": {
                            (column or "all"): {
                                "ratings": cell.n,
                                "mean": num(cell.mean),
                                "ci_low": num(cell.low),
                                "ci_high": num(cell.high),
                                "rank_range": cell.ranked.rank_range if cell.ranked else None,
                                "cluster": cell.ranked.cluster if cell.ranked else None,
                                "thin": cell.thin,
                                "all_equal": cell.no_spread,
                            }
                            for column, cell in zip(block.columns, cells, strict=True)
                            if cell is not None
                        },
                    }
                    for system, cells in block.rows()
                ],
            }
            for block in table.criteria
        ],
    }
