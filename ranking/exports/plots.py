"""The rank-range plot: each system's 95% rank range as a bar, clusters shaded."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from annotations.core.export_safety import plain_text
from ranking.selectors.runs import Row

_COLOURS = ("#1f5fbf", "#c2410c", "#15803d", "#7e22ce", "#b45309", "#0e7490", "#be185d", "#4d7c0f")


def rank_range_plot(
    rows: Sequence[Row],
    *,
    fmt: str = "svg",
    title: str = "",
    clusters: bool = True,
    no_clusters: str = "",
) -> bytes:
    """Draw the rows (in ranking order) as an SVG or PNG image and return its bytes.

    ``clusters=False`` (the minimum-data rule is not met): one colour, no rules between
    clusters, no cluster numbers; ``no_clusters`` says in a few words which part of the
    rule failed (:attr:`~ranking.selectors.data_rule.DataRule.no_clusters_short`)."""
    if fmt not in ("svg", "png"):
        raise ValueError("The plot is drawn as svg or png.")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(rows)
    # parse_math off: a label or title with "$" (a system "$x^{$", a campaign "Budget $5")
    # is text, not mathtext (invalid mathtext raised, a 500; valid mathtext drew a formula)
    with matplotlib.rc_context({"svg.fonttype": "none", "text.parse_math": False}):
        fig, ax = plt.subplots(figsize=(7.5, 1.6 + 0.32 * max(n, 1)), dpi=110)
        return _draw(fig, ax, rows, n, fmt, title, plt, clusters, no_clusters)


def _draw(
    fig: Any,
    ax: Any,
    rows: Sequence[Row],
    n: int,
    fmt: str,
    title: str,
    plt: Any,
    clusters: bool,
    no_clusters: str,
) -> bytes:
    try:
        for i, r in enumerate(rows):
            cluster = r.cluster if clusters and r.cluster is not None else 1
            colour = _COLOURS[(cluster - 1) % len(_COLOURS)]
            ax.barh(
                i,
                r.rank_hi - r.rank_lo + 0.8,
                left=r.rank_lo - 0.4,
                height=0.55,
                color=colour,
                alpha=0.85,
            )
            ax.text(r.rank_hi + 0.55, i, f"{r.value:.3f}", va="center", fontsize=8, color="#333")
        previous = None
        for i, r in enumerate(rows):
            if clusters and previous is not None and r.cluster != previous:
                ax.axhline(i - 0.5, color="#888", linewidth=0.8, linestyle="--")
            previous = r.cluster
        ax.set_yticks(range(n))
        # One line, without control or bidirectional-override characters: a system
        # label's U+202E reordered the plot's label as it does a table's.
        labels = [plain_text(f"{r.system} ({r.cluster})" if clusters else r.system) for r in rows]
        ax.set_yticklabels(labels, fontsize=9)
        ax.invert_yaxis()
        last = max([n, *(r.rank_hi for r in rows)])
        ax.set_xlim(0.4, last + 2.2)
        ax.set_xticks(range(1, last + 1))
        ax.tick_params(axis="x", labelsize=8)
        ax.set_xlabel(
            "rank range (1 = best); label: system (cluster), bar text: value"
            if clusters
            else "rank range (1 = best); bar text: value; "
            f"no clusters ({no_clusters or 'minimum-data rule not met'})"
        )
        ax.grid(axis="x", color="#ddd", linewidth=0.6)
        ax.set_axisbelow(True)
        if title:
            ax.set_title(plain_text(title), fontsize=10)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt)
        return buffer.getvalue()
    finally:
        plt.close(fig)
