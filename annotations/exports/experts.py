"""The crowd-versus-experts report as CSV (the report: ``annotations.selectors.experts``)."""

from __future__ import annotations

import io
import math

from annotations.core.experts import Estimate
from annotations.core.export_safety import csv_row
from annotations.selectors.experts import ExpertReport
from common.tables import csv_writer

#: the CSV's name for each worker's figure: alpha between the worker and the experts'
#: consensus (their mean value per output)
ALPHA_FIGURE = "alpha_with_expert_consensus"


def _note(e: Estimate) -> str:
    """Why a figure or its interval is left empty ("" when both are given)."""
    if not e.defined:
        return f"undefined: {e.reason}"
    return f"no interval: {e.interval_reason}" if e.interval_reason else ""


def expert_report_csv(report: ExpertReport) -> str:
    """The report as CSV: one row per crowd worker, then the ranking correlations
    (cells made safe for spreadsheets: ``core.export_safety``)."""
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\n")
    writer.writerow(
        ["criterion", "figure", "worker", "units", "value", "ci_low", "ci_high", "note"]
    )
    name = report.criterion.name

    def number(value: float) -> str:
        return "" if math.isnan(value) else f"{value:.6g}"

    for row in report.workers:
        a = row.alpha
        writer.writerow(
            csv_row(
                [
                    name,
                    ALPHA_FIGURE,
                    row.worker.external_id,
                    a.n,
                    *(number(a.value), number(a.low), number(a.high)),
                    _note(a),
                ]
            )
        )
    rankings = [("systems", report.ranking)]
    if report.ranking_with_excluded is not None:
        rankings.append(("systems_with_excluded", report.ranking_with_excluded))
    for prefix, ranking in rankings:
        for figure, e in (("spearman", ranking.spearman), ("kendall_tau_b", ranking.kendall)):
            writer.writerow(
                csv_row(
                    [
                        name,
                        f"{prefix}_{figure}",
                        "",
                        e.n,
                        number(e.value),
                        number(e.low),
                        number(e.high),
                        _note(e),
                    ]
                )
            )
    return out.getvalue()
