"""The rank-range plot (ranking/exports/plots.py): names come out inert, as in every
other export."""

from __future__ import annotations

from ranking.exports.plots import rank_range_plot
from ranking.selectors.runs import Row


def test_bidirectional_overrides_and_controls_are_dropped_from_labels_and_title() -> None:
    """A system label's U+202E survived into the SVG and reordered the label, where the
    tables, LaTeX and Markdown exports drop it."""
    rows = [
        Row("sys\u202eE", 1.5, 0.1, 1, 1, 1, 40),
        Row("plain\x1b[31m", 0.5, 0.1, 2, 2, 2, 40),
    ]
    svg = rank_range_plot(rows, fmt="svg", title="quality\u2066 run\u2069").decode()
    assert "\u202e" not in svg and "\u2066" not in svg and "\x1b" not in svg
    assert "sysE (1)" in svg and "quality run" in svg
