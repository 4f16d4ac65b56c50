"""A ranking run's result in the formats organizers publish: a plain table like the E2E
report's Table 11, JSON, CSV, LaTeX (booktabs, a rule between clusters) and Markdown.

Every format records what the ranking rests on (``meta``: judgements used and left
out, excluded workers, method, parameters, seed, the minimum-data rule) and lists the
systems it could not rank (unranked) or left out for too few comparisons
(provisional). The CSV is a plain table, its header the first line, so that
``pandas.read_csv`` and spreadsheets read it as it is; its provenance is the
``provenance`` download (a ``field,value`` CSV, the sidecar) and the JSON export. Every name goes through :mod:`annotations.core.export_safety`:
CSV cells cannot become formulas, LaTeX and Markdown cannot become markup.

When ``meta["data_rule"]["met"]`` is false, no format shows clusters: the human-readable
ones (table, LaTeX, Markdown) have no cluster numbers and no rules between clusters and
say why, naming the part of the rule that failed (``data_rule["no_clusters"]``: too few
comparisons, or the split-half check) and what to do; CSV leaves the cluster column
empty and JSON gives ``"cluster": null``, beside the rule's verdict (a program reading
the numbers would otherwise take them for significance clusters).

:func:`run_export` is the one function the web download, the API export and
``manage.py rank`` call, so the same run gives the same text everywhere.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from annotations.core.export_safety import (
    csv_cell,
    csv_row,
    latex_escape,
    markdown_escape,
    plain_text,
)
from annotations.core.slices import describe
from common.errors import DomainError
from common.tables import csv_writer
from ranking.exports import plots
from ranking.models import RankingRun
from ranking.selectors import runs as selectors
from ranking.selectors import slices
from ranking.selectors.data_rule import ranking_data_rule
from ranking.selectors.runs import Row

__all__ = [
    "EXPORT_TYPES",
    "FORMATS",
    "Row",
    "parse_csv",
    "provenance",
    "render",
    "run_export",
    "run_plot",
    "run_title",
]

#: format -> (content type, file extension)
EXPORT_TYPES = {
    "table": ("text/plain; charset=utf-8", "txt"),
    "json": ("application/json", "json"),
    "csv": ("text/csv; charset=utf-8", "csv"),
    "latex": ("application/x-tex; charset=utf-8", "tex"),
    "markdown": ("text/markdown; charset=utf-8", "md"),
    # the CSV's sidecar: what the ranking rests on, as ``field,value`` rows under a header
    "provenance": ("text/csv; charset=utf-8", "provenance.csv"),
}
FORMATS = tuple(EXPORT_TYPES)


# A stored run: what the pages, the API and ``manage.py rank`` export ---------------------


def run_title(run: RankingRun) -> str:
    title = f"{run.campaign.name}: {run.criterion.name} ({run.get_method_display()})"
    return f"{title}, slice {describe(run.where)}" if run.where else title


def run_export(*, run: RankingRun, fmt: str, title: str | None = None) -> str:
    """A finished run's result in ``fmt`` (one of :data:`FORMATS`), with its provenance.

    The one function behind the web download, the API export and ``manage.py rank``:
    the same run gives the same text (``title``, default :func:`run_title`, only heads
    the human-readable formats; JSON and CSV carry none).
    """
    if fmt not in FORMATS:
        raise DomainError(f"Unknown format '{fmt}'; choose one of {', '.join(FORMATS)}.")
    if run.status != RankingRun.Status.DONE:
        raise DomainError(f"Ranking run {run.pk} is {run.status}, not done: nothing to export.")
    return render(
        selectors.ranking_run_rows(run=run),
        fmt,
        title=run_title(run) if title is None else title,
        meta=selectors.ranking_run_meta(run=run),
    )


def run_plot(*, run: RankingRun, fmt: str = "svg", title: str | None = None) -> bytes:
    """A finished run's rank-range plot; clusters only when the minimum-data rule is met."""
    rule = ranking_data_rule(run=run)
    return plots.rank_range_plot(
        selectors.ranking_run_rows(run=run),
        fmt=fmt,
        title=run_title(run) if title is None else title,
        clusters=rule.met,
        no_clusters=rule.no_clusters_short,
    )


# Rows in a format -----------------------------------------------------------------------


def render(rows: Sequence[Row], fmt: str, *, title: str = "", meta: dict | None = None) -> str:
    """The rows (in ranking order) in ``fmt``, one of :data:`FORMATS`."""
    if fmt not in FORMATS:
        raise ValueError(f"Unknown format '{fmt}'; choose one of {', '.join(FORMATS)}.")
    return {
        "table": _table,
        "json": _json,
        "csv": _csv,
        "latex": _latex,
        "markdown": _markdown,
        "provenance": _provenance_csv,
    }[fmt](rows, title, meta or {})


def _clusters_shown(meta: dict) -> bool:
    rule = meta.get("data_rule")
    return not isinstance(rule, dict) or bool(rule.get("met", True))


#: the mark of a ranked system short of the minimum data, as the page marks its row
THIN_MARK = "\u2020"


def _thin(meta: dict) -> set[str]:
    """The ranked systems with fewer judgements or comparisons than the minimum."""
    rule = meta.get("data_rule")
    return {str(label) for label in rule.get("thin", [])} if isinstance(rule, dict) else set()


def _thin_key(meta: dict) -> str:
    """The sentence that explains :data:`THIN_MARK` ("" when no row carries it)."""
    if not _thin(meta):
        return ""
    rule = meta.get("data_rule")
    minimum = rule.get("min_comparisons", "") if isinstance(rule, dict) else ""
    return f"{THIN_MARK} fewer than {minimum} judgements or comparisons."


def _no_clusters(meta: dict) -> str:
    """Why the clusters are not shown, naming the part of the minimum-data rule that
    failed (``data_rule.no_clusters``, from :class:`~ranking.selectors.data_rule.DataRule`)."""
    rule = meta.get("data_rule")
    reason = rule.get("no_clusters") if isinstance(rule, dict) else None
    return _one_line(reason) if reason else "the minimum-data rule is not met."


def _one_line(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return plain_text(" ".join(text.splitlines()))


#: provenance lines, in this order, under these headings (absent keys are skipped)
_PROVENANCE = (
    ("campaign", "campaign"),
    ("criterion", "criterion"),
    ("slice", "slice (items ranked)"),
    ("ranking_run", "ranking run"),
    ("method", "method"),
    ("parameters", "parameters"),
    ("runs", "runs"),
    ("seed", "seed"),
    ("confidence", "confidence"),
    ("coverage", "rank-range coverage"),
    ("judgements_total", "judgements stored"),
    ("judgements", "judgements used"),
    ("left_out", "judgements left out"),
    ("excluded_workers", "excluded workers"),
    ("comparisons", "comparisons"),
    ("fingerprint", "fingerprint (judgements, criterion, method, parameters, runs, seed)"),
    ("judgements_fingerprint", "fingerprint of the judgements"),
    ("unranked", "unranked (no comparisons)"),
    ("provisional", "provisional (too few judgements or comparisons, not ranked)"),
    ("data_rule", "minimum-data rule"),
)


def provenance(meta: dict) -> list[tuple[str, str]]:
    """(heading, one-line text) pairs saying what the ranking rests on."""
    out = []
    for key, heading in _PROVENANCE:
        if key not in meta:
            continue
        value = meta[key]
        if key == "data_rule" and isinstance(value, dict):
            text = "met" if value.get("met") else "not met: " + " ".join(value.get("problems", []))
            text = (
                f"each system >= {value.get('min_comparisons')} comparisons in as many "
                "judgements, every system "
                f"ranked, stability check passing; {text}"
            )
        elif key in ("excluded_workers", "unranked") and isinstance(value, list):
            text = ", ".join(str(v) for v in value) if value else "none"
        elif key == "coverage" and isinstance(value, dict):
            text = str(value.get("text", ""))
        elif key == "provisional" and isinstance(value, list):
            text = (
                ", ".join(
                    f"{p.get('system')} ({p.get('comparisons')} comparisons"
                    + (f", {p['judgements']} judgements)" if "judgements" in p else ")")
                    for p in value
                )
                if value
                else "none"
            )
        elif key == "left_out" and isinstance(value, dict):
            # A fixed order (PostgreSQL's jsonb does not keep the stored one).
            known = ("attention_checks", "repeats", "excluded_workers")
            keys = [k for k in known if k in value] + sorted(set(value) - set(known))
            text = ", ".join(f"{k.replace('_', ' ')} {value[k]}" for k in keys)
        else:
            text = _one_line(value)
        out.append((heading, _one_line(text)))
    return out


def _value_label(meta: dict) -> str:
    """The value column's heading: TrueSkill for the TrueSkill methods."""
    return "TrueSkill" if meta.get("method") in (None, "wmt14", "bootstrap") else "Value"


def _table(rows: Sequence[Row], title: str, meta: dict) -> str:
    shown = _clusters_shown(meta)
    thin = _thin(meta)
    names = [_one_line(r.system) for r in rows]
    width = max([len("System"), *(len(n) for n in names)])
    lines = [_one_line(title)] if title else []
    header = f"{'#':>3}  {_value_label(meta):>9}  {'Range':>7}  {'System':<{width}}"
    lines += [header, "-" * len(header)]
    previous = None
    for r, name in zip(rows, names, strict=True):
        if shown and previous is not None and r.cluster != previous:
            lines.append("-" * len(header))
        cluster = str(r.cluster) if shown and r.cluster != previous else ""
        mark = f" {THIN_MARK}" if r.system in thin else ""
        lines.append(f"{cluster:>3}  {r.value:>9.3f}  {r.rank_range:>7}  {name}{mark}".rstrip())
        previous = r.cluster
    for p in _provisional(meta):
        name = f"{_one_line(p['system'])} ({p['comparisons']} comparisons)"
        lines.append(f"{'':>3}  {'-':>9}  {'prov.':>7}  {name}")
    key = _thin_key(meta)
    if key:
        lines.append(key)
    if not shown:
        lines.append(f"(No clusters: {_no_clusters(meta)} See the minimum-data rule below.)")
    if meta:
        lines.append("")
        lines += [f"{heading}: {text}" for heading, text in provenance(meta)]
    return "\n".join(lines) + "\n"


def _json(rows: Sequence[Row], title: str, meta: dict) -> str:
    shown = _clusters_shown(meta)
    ranking = [{**asdict(r), "cluster": r.cluster if shown else None} for r in rows]
    return json.dumps({**meta, "ranking": ranking}, indent=1) + "\n"


#: the ranking CSV's columns (its first line)
CSV_COLUMNS = (
    "status",
    "cluster",
    "system",
    "value",
    "spread",
    "rank_lo",
    "rank_hi",
    "comparisons",
    "caveat",
)


def _caveats(meta: dict) -> dict[str, str]:
    """Each ranked system's caveat, as the page and the LaTeX mark it: ``thin`` (fewer
    judgements or comparisons than the minimum), and where the data leave values
    unbounded or groups never compared, the system's group (``group 1 of 2, unbounded``
    under Bradley-Terry's separation; ``group 1 of 2, never compared with the others``).
    Systems without a caveat are left out."""
    notes: dict[str, list[str]] = {label: ["thin"] for label in _thin(meta)}
    rule = meta.get("data_rule")
    split = rule.get("separation") if isinstance(rule, dict) else None
    if isinstance(split, dict):
        groups = split.get("groups") or []
        how = "unbounded" if split.get("compared", True) else "never compared with the others"
        for number, group in enumerate(groups, start=1):
            for label in group:
                notes.setdefault(str(label), []).append(f"group {number} of {len(groups)}, {how}")
    return {label: "; ".join(words) for label, words in notes.items()}


def _csv(rows: Sequence[Row], title: str, meta: dict) -> str:
    """The ranking as a plain table, the header its first line (``pandas.read_csv`` and
    spreadsheets read it as it is): ranked systems, then the provisional ones (fewer
    comparisons than the minimum: empty ranks, their count) and the unranked (no
    comparisons), ``status`` saying which; ``caveat`` says what the page marks on a ranked
    row (:func:`_caveats`). What the ranking rests on is in the
    ``provenance`` download (its sidecar) and in the JSON export."""
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    shown = _clusters_shown(meta)
    caveats = _caveats(meta)
    for r in rows:
        writer.writerow(
            csv_row(
                [
                    "ranked",
                    r.cluster if shown else "",
                    r.system,
                    f"{r.value:.6f}",
                    f"{r.spread:.6f}",
                    r.rank_lo,
                    r.rank_hi,
                    r.comparisons,
                    caveats.get(r.system, ""),
                ]
            )
        )
    for p in _provisional(meta):
        writer.writerow(
            csv_row(["provisional", "", p["system"], "", "", "", "", p["comparisons"], ""])
        )
    for label in meta.get("unranked", []):
        writer.writerow(csv_row(["unranked", "", label, "", "", "", "", 0, ""]))
    return out.getvalue()


def _provenance_csv(rows: Sequence[Row], title: str, meta: dict) -> str:
    """The CSV's sidecar: ``field,value`` (the header), then one row per provenance line."""
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\n")
    writer.writerow(["field", "value"])
    for heading, text in provenance(meta):
        writer.writerow([csv_cell(heading), csv_cell(text)])
    return out.getvalue()


def _provisional(meta: dict) -> list[dict[str, Any]]:
    """The provisional systems the run left out (``meta["provisional"]``)."""
    value = meta.get("provisional")
    return [p for p in value if isinstance(p, dict)] if isinstance(value, list) else []


def _latex(rows: Sequence[Row], title: str, meta: dict) -> str:
    shown = _clusters_shown(meta)
    thin = _thin(meta)
    lines = [
        r"% requires \usepackage{booktabs}",
        r"\begin{tabular}{rrcl}",
        r"\toprule",
        rf"\# & {_value_label(meta)} & Range & System \\",
        r"\midrule",
    ]
    previous = None
    for r in rows:
        if shown and previous is not None and r.cluster != previous:
            lines.append(r"\midrule")
        cluster = str(r.cluster) if shown and r.cluster != previous else ""
        rank_range = r.rank_range.replace("-", "--")
        mark = r"\textsuperscript{\dag}" if r.system in thin else ""
        lines.append(
            f"{cluster} & {r.value:.3f} & {rank_range} & {latex_escape(r.system)}{mark} \\\\"
        )
        previous = r.cluster
    for p in _provisional(meta):
        lines.append(
            f" & -- & provisional & {latex_escape(p['system'])} "
            f"({p['comparisons']} comparisons) \\\\"
        )
    for label in meta.get("unranked", []):
        lines.append(f" & -- & unranked & {latex_escape(label)} \\\\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    # Printed, not comments: a caveat pasted into a paper must show in it.
    key = _thin_key(meta)
    if key:
        said = latex_escape(key.removeprefix(THIN_MARK).strip())
        lines.append(rf"\par{{\footnotesize \textsuperscript{{\dag}} {said}}}")
    if not shown:
        lines.append(
            rf"\par{{\footnotesize No clusters: {latex_escape(_no_clusters(meta))} "
            "See the minimum-data rule in the provenance.}"
        )
    # Comments: escaped as well, and newlines are spaces, so nothing leaves the comment.
    lines += [f"% {heading}: {latex_escape(text)}" for heading, text in provenance(meta)]
    if title:
        lines.insert(0, f"% {latex_escape(title)}")
    return "\n".join(lines) + "\n"


def _markdown(rows: Sequence[Row], title: str, meta: dict) -> str:
    shown = _clusters_shown(meta)
    thin = _thin(meta)
    lines = [f"**{markdown_escape(title)}**", ""] if title else []
    lines += [f"| # | {_value_label(meta)} | Range | System |", "|--:|--:|:-:|:--|"]
    previous = None
    for r in rows:
        cluster = str(r.cluster) if shown and r.cluster != previous else ""
        mark = f" {THIN_MARK}" if r.system in thin else ""
        lines.append(
            f"| {cluster} | {r.value:.3f} | {r.rank_range} | {markdown_escape(r.system)}{mark} |"
        )
        previous = r.cluster
    for p in _provisional(meta):
        lines.append(
            f"|  | - | provisional | {markdown_escape(p['system'])} "
            f"({p['comparisons']} comparisons) |"
        )
    for label in meta.get("unranked", []):
        lines.append(f"|  | - | unranked | {markdown_escape(label)} |")
    key = _thin_key(meta)
    if key:
        lines += ["", key]
    if not shown:
        lines += [
            "",
            f"No clusters: {markdown_escape(_no_clusters(meta))} See the minimum-data rule below.",
        ]
    if meta:
        lines.append("")
        lines += [f"- {heading}: {markdown_escape(text)}" for heading, text in provenance(meta)]
    return "\n".join(lines) + "\n"


def parse_csv(text: str) -> list[Row]:
    """Read back the ranked rows :func:`render` wrote as CSV (an empty cluster: withheld,
    None)."""
    reader = csv.DictReader(io.StringIO(text))
    return [
        Row(
            system=d["system"],
            value=float(d["value"]),
            spread=float(d["spread"]),
            rank_lo=int(d["rank_lo"]),
            rank_hi=int(d["rank_hi"]),
            cluster=int(d["cluster"]) if d["cluster"] else None,
            comparisons=int(d["comparisons"]),
        )
        for d in reader
        if d["rank_lo"]
    ]


def side_by_side(runs: Sequence[RankingRun]) -> str:
    """Plain text: each system's value and rank range on every run's slice."""
    table = slices.ranking_side_by_side(runs=list(runs))
    width = max([len("System"), *(len(_one_line(s)) for s in table.systems)])
    columns = [_one_line(c.heading) for c in table.columns]
    cell = max(16, *(len(c) for c in columns))
    lines = ["", "Side by side (value, rank range):"]
    lines.append(f"{'System':<{width}}  " + "  ".join(f"{c:>{cell}}" for c in columns))
    lines.append("-" * len(lines[-1]))
    for system, rows in table.cells():
        shown = [f"{r.value:.3f} ({r.rank_range})" if r is not None else "-" for r in rows]
        lines.append(f"{_one_line(system):<{width}}  " + "  ".join(f"{c:>{cell}}" for c in shown))
    return "\n".join(lines) + "\n"
