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


def test_a_dollar_sign_is_text_not_mathtext() -> None:
    """A system "$x^{$" (invalid mathtext) made the plot a 500; "$\\frac{1}{2}$" (valid)
    was drawn as a fraction, another label than the stored one."""
    rows = [
        Row("$x^{$", 1.5, 0.1, 1, 1, 1, 40),
        Row("$\\frac{1}{2}$", 0.5, 0.1, 2, 2, 2, 40),
        Row("a $ b $ c", 0.2, 0.1, 3, 3, 3, 40),
    ]
    svg = rank_range_plot(rows, fmt="svg", title="Budget $x^{$ study").decode()
    assert "$x^{$ (1)" in svg and "$\\frac{1}{2}$ (2)" in svg and "a $ b $ c (3)" in svg
    assert "Budget $x^{$ study" in svg
    assert rank_range_plot(rows, fmt="png", title="$\\undefined$")[:4] == b"\x89PNG"
