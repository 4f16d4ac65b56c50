"""A ranking run's result in the formats organizers publish: a plain table like the E2E
report's Table 11, JSON, CSV, LaTeX (booktabs, a rule between clusters) and Markdown."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

FORMATS = ("table", "json", "csv", "latex", "markdown")


@dataclass(frozen=True)
class Row:
    """One system's line of a ranking."""

    system: str
    value: float
    spread: float
    rank_lo: int
    rank_hi: int
    cluster: int
    comparisons: int

    @property
    def rank_range(self) -> str:
        return (
            f"{self.rank_lo}" if self.rank_lo == self.rank_hi else f"{self.rank_lo}-{self.rank_hi}"
        )


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
    }[fmt](rows, title, meta or {})


def _value_label(meta: dict) -> str:
    """The value column's heading: TrueSkill for the TrueSkill methods."""
    return "TrueSkill" if meta.get("method") in (None, "wmt14", "bootstrap") else "Value"


def _table(rows: Sequence[Row], title: str, meta: dict) -> str:
    width = max([len("System"), *(len(r.system) for r in rows)])
    lines = [title] if title else []
    header = f"{'#':>3}  {_value_label(meta):>9}  {'Range':>7}  {'System':<{width}}"
    lines += [header, "-" * len(header)]
    previous = None
    for r in rows:
        if previous is not None and r.cluster != previous:
            lines.append("-" * len(header))
        cluster = str(r.cluster) if r.cluster != previous else ""
        lines.append(f"{cluster:>3}  {r.value:>9.3f}  {r.rank_range:>7}  {r.system:<{width}}")
        previous = r.cluster
    return "\n".join(lines) + "\n"


def _json(rows: Sequence[Row], title: str, meta: dict) -> str:
    return json.dumps({**meta, "ranking": [asdict(r) for r in rows]}, indent=1) + "\n"


def _csv(rows: Sequence[Row], title: str, meta: dict) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["cluster", "system", "value", "spread", "rank_lo", "rank_hi", "comparisons"])
    for r in rows:
        writer.writerow(
            [
                r.cluster,
                r.system,
                f"{r.value:.6f}",
                f"{r.spread:.6f}",
                r.rank_lo,
                r.rank_hi,
                r.comparisons,
            ]
        )
    return out.getvalue()


_LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def _tex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def _latex(rows: Sequence[Row], title: str, meta: dict) -> str:
    lines = [
        r"% requires \usepackage{booktabs}",
        r"\begin{tabular}{rrcl}",
        r"\toprule",
        rf"\# & {_value_label(meta)} & Range & System \\",
        r"\midrule",
    ]
    previous = None
    for r in rows:
        if previous is not None and r.cluster != previous:
            lines.append(r"\midrule")
        cluster = str(r.cluster) if r.cluster != previous else ""
        lines.append(
            f"{cluster} & {r.value:.3f} & {r.rank_range.replace('-', '--')} & {_tex(r.system)} \\\\"
        )
        previous = r.cluster
    lines += [r"\bottomrule", r"\end{tabular}"]
    if title:
        lines.insert(0, f"% {title}")
    return "\n".join(lines) + "\n"


def _markdown(rows: Sequence[Row], title: str, meta: dict) -> str:
    lines = [f"**{title}**", ""] if title else []
    lines += [f"| # | {_value_label(meta)} | Range | System |", "|--:|--:|:-:|:--|"]
    previous = None
    for r in rows:
        cluster = str(r.cluster) if r.cluster != previous else ""
        system = r.system.replace("|", r"\|")
        lines.append(f"| {cluster} | {r.value:.3f} | {r.rank_range} | {system} |")
        previous = r.cluster
    return "\n".join(lines) + "\n"


def parse_csv(text: str) -> list[Row]:
    """Read back what :func:`render` wrote as CSV."""
    reader = csv.DictReader(io.StringIO(text))
    return [
        Row(
            system=d["system"],
            value=float(d["value"]),
            spread=float(d["spread"]),
            rank_lo=int(d["rank_lo"]),
            rank_hi=int(d["rank_hi"]),
            cluster=int(d["cluster"]),
            comparisons=int(d["comparisons"]),
        )
        for d in reader
    ]
