"""A metric-human correlation report and its renderings: a text table, JSON, CSV, LaTeX
(names pass through ``annotations.core.export_safety``) and one SVG scatter plot per
metric (presentation attributes only, no ``<style>`` or script: safe inline under CSP)."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from annotations.core.export_safety import csv_row, latex_escape
from common.tables import csv_writer
from reports.core.correlation import Correlation

__all__ = [
    "CorrelationReport",
    "MetricCorrelation",
    "Point",
    "report_csv",
    "report_json",
    "report_latex",
    "report_table",
    "scatter_svg",
]


@dataclass(frozen=True)
class Point:
    """One dot of a scatter plot: a system with its metric and human score."""

    label: str
    metric: float
    human: float


@dataclass(frozen=True)
class MetricCorrelation:
    """One metric against one criterion: the statistics and the system-level points."""

    metric: str
    system: list[Correlation]
    segment: list[Correlation]
    points: list[Point]
    n_systems: int
    n_segments: int

    @property
    def rows(self) -> list[Correlation]:
        return [*self.system, *self.segment]


@dataclass(frozen=True)
class CorrelationReport:
    campaign: str
    criterion: str
    human: str  # what the system-level human score is
    normalisation: str
    resamples: int
    seed: int
    confidence: float
    metrics: list[MetricCorrelation] = field(default_factory=list)


def _num(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)


def _fmt(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.3f}"


def report_json(report: CorrelationReport) -> dict[str, Any]:
    """The report as JSON-ready data (NaN as null)."""
    return {
        "campaign": report.campaign,
        "criterion": report.criterion,
        "human_system_score": report.human,
        "normalisation": report.normalisation,
        "bootstrap": {
            "resamples": report.resamples,
            "seed": report.seed,
            "confidence": report.confidence,
            "interval": "percentile",
        },
        "metrics": [
            {
                "metric": m.metric,
                "systems": m.n_systems,
                "segments": m.n_segments,
                "correlations": [
                    {
                        "level": c.level,
                        "method": c.method,
                        "value": _num(c.value),
                        "low": _num(c.low),
                        "high": _num(c.high),
                        "n": c.n,
                        "valid_resamples": c.valid,
                    }
                    for c in m.rows
                ],
                "points": [
                    {"system": p.label, "metric": p.metric, "human": p.human} for p in m.points
                ],
            }
            for m in report.metrics
        ],
    }


def report_table(report: CorrelationReport) -> str:
    """A plain-text table, one line per metric and statistic."""
    pct = round(report.confidence * 100)
    lines = [
        f"Metric-human correlation: campaign {report.campaign}, criterion {report.criterion}",
        f"System-level human score: {report.human}; {report.normalisation}.",
        f"Bootstrap: {report.resamples} resamples, seed {report.seed}, {pct}% percentile "
        "intervals (systems resampled at system level, items at segment level); each "
        "metric draws from its own stream (the seed and its name: metric_rng).",
        "",
        f"{'Metric':<20} {'Level':<8} {'Statistic':<24} {'Value':>7}  {pct}% CI{'':<10} {'n':>7}",
    ]
    for m in report.metrics:
        for c in m.rows:
            interval = f"[{_fmt(c.low)}, {_fmt(c.high)}]"
            lines.append(
                f"{m.metric[:20]:<20} {c.level:<8} {c.label:<24} {_fmt(c.value):>7}  "
                f"{interval:<16} {c.n:>7}"
            )
    if not report.metrics:
        lines.append("(no metric scores imported)")
    return "\n".join(lines) + "\n"


def report_csv(report: CorrelationReport) -> str:
    """One CSV row per metric and statistic (cells made safe for spreadsheets)."""
    buffer = io.StringIO()
    writer = csv_writer(buffer, lineterminator="\n")
    writer.writerow(
        ["campaign", "criterion", "metric", "level", "method", "value", "low", "high", "n"]
    )
    for m in report.metrics:
        for c in m.rows:
            writer.writerow(
                csv_row(
                    [
                        report.campaign,
                        report.criterion,
                        m.metric,
                        c.level,
                        c.method,
                        "" if math.isnan(c.value) else repr(c.value),
                        "" if math.isnan(c.low) else repr(c.low),
                        "" if math.isnan(c.high) else repr(c.high),
                        c.n,
                    ]
                )
            )
    return buffer.getvalue()


def report_latex(report: CorrelationReport) -> str:
    """A booktabs table like the E2E report's: one row per metric, system-level and
    segment-level columns, each value with its interval below it."""
    pct = round(report.confidence * 100)
    head = " & ".join(["Metric"] + [f"sys {c}" for c in ("r", r"$\rho$", r"$\tau_b$")])
    head += " & " + " & ".join(f"seg {c}" for c in ("r", r"$\rho$", r"$\tau_b$", r"$\tau$-like"))
    lines = [
        r"\begin{table}[ht]",
        r"\centering",
        r"\begin{tabular}{l" + "r" * 7 + "}",
        r"\toprule",
        head + r" \\",
        r"\midrule",
    ]
    for m in report.metrics:
        values = [_fmt(c.value) for c in m.rows]
        intervals = [
            "" if math.isnan(c.low) else f"[{_fmt(c.low)}, {_fmt(c.high)}]" for c in m.rows
        ]
        lines.append(latex_escape(m.metric) + " & " + " & ".join(values) + r" \\")
        lines.append(" & " + " & ".join(rf"{{\scriptsize {i}}}" for i in intervals) + r" \\")
    lines += [
        r"\bottomrule",
        r"\end{tabular}",
        r"\caption{Correlation of automatic metrics with human "
        + latex_escape(report.criterion)
        + f" scores (campaign {latex_escape(report.campaign)}); {pct}\\% bootstrap intervals, "
        f"{report.resamples} resamples. System level: Pearson, Spearman, Kendall "
        r"$\tau_b$; segment level: the same pooled and WMT's $\tau$-like.}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"


def _ticks(low: float, high: float) -> list[float]:
    if high <= low:
        return [low]
    step = (high - low) / 4
    return [low + i * step for i in range(5)]


def scatter_svg(
    points: list[Point], *, metric: str, criterion: str, width: int = 360, height: int = 300
) -> str:
    """An SVG scatter plot of the systems (metric on x, human on y), labels on the dots.

    Only presentation attributes (no ``style``), so it may be inlined under a strict CSP;
    every text is XML-escaped. Scales to its container (``viewBox``, no fixed size)."""
    left, right, top, bottom = 52, 14, 14, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = [p.metric for p in points] or [0.0]
    ys = [p.human for p in points] or [0.0]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    pad_x = (x1 - x0) * 0.05 or 1.0
    pad_y = (y1 - y0) * 0.05 or 1.0
    x0, x1, y0, y1 = x0 - pad_x, x1 + pad_x, y0 - pad_y, y1 + pad_y

    def sx(v: float) -> float:
        return left + (v - x0) / (x1 - x0) * plot_w

    def sy(v: float) -> float:
        return top + plot_h - (v - y0) / (y1 - y0) * plot_h

    title = f"{metric} against human {criterion}: one dot per system"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(title, {chr(34): "&quot;"})}" class="scatter">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fff" '
        'stroke="#999" stroke-width="1"/>',
    ]
    for t in _ticks(x0 + pad_x, x1 - pad_x):
        x = sx(t)
        out.append(
            f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" y2="{top + plot_h + 4}" '
            'stroke="#666"/>'
            f'<text x="{x:.1f}" y="{top + plot_h + 15}" font-size="9" text-anchor="middle" '
            f'fill="#333">{t:.3g}</text>'
        )
    for t in _ticks(y0 + pad_y, y1 - pad_y):
        y = sy(t)
        out.append(
            f'<line x1="{left - 4}" y1="{y:.1f}" x2="{left}" y2="{y:.1f}" stroke="#666"/>'
            f'<text x="{left - 6}" y="{y + 3:.1f}" font-size="9" text-anchor="end" '
            f'fill="#333">{t:.3g}</text>'
        )
    for p in points:
        x, y = sx(p.metric), sy(p.human)
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="#1f5fbf" fill-opacity="0.8">'
            f"<title>{escape(p.label)}: metric {p.metric:.4g}, human {p.human:.4g}</title>"
            "</circle>"
            f'<text x="{x + 5:.1f}" y="{y - 4:.1f}" font-size="8" fill="#333">'
            f"{escape(p.label[:16])}</text>"
        )
    out.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" font-size="10" '
        f'text-anchor="middle" fill="#111">{escape(metric[:40])} (metric)</text>'
        f'<text x="12" y="{top + plot_h / 2:.1f}" font-size="10" text-anchor="middle" '
        f'fill="#111" transform="rotate(-90 12 {top + plot_h / 2:.1f})">human '
        f"{escape(criterion[:30])}</text>"
    )
    out.append("</svg>")
    return "".join(out)
