"""Make exported text safe to open: spreadsheets, LaTeX and Markdown.

Every export that writes a name, an id or a text a person supplied (designers name
campaigns and systems; crowd workers supply their own ids) goes through these, so a
cell can never become a spreadsheet formula and a name can never become TeX or
Markdown markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# OWASP "CSV Injection": a cell that starts with one of these is read as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A plain number is data, not a formula, even when it starts with a sign.
_PLAIN_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")

_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_LATEX_RE = re.compile(r"[\\&%$#_{}~^]|\r\n|\r|\n")
_NEWLINES = re.compile(r"\r\n|\r|\n")


def csv_cell(value: object) -> object:
    """One spreadsheet cell, neutralised (OWASP): a text that a spreadsheet would read
    as a formula gets a leading apostrophe. Numbers (and numeric text) pass unchanged."""
    if not isinstance(value, str) or not value:
        return value
    if value.startswith(_FORMULA_START) and not _PLAIN_NUMBER.match(value):
        return "'" + value
    return value


def csv_row(values: Iterable[object]) -> list[object]:
    """A row of :func:`csv_cell`."""
    return [csv_cell(value) for value in values]


def latex_escape(text: object) -> str:
    """Text as inert LaTeX: every TeX special escaped, newlines made spaces."""
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIALS.get(m.group(0), " "), str(text))


def markdown_cell(text: object) -> str:
    """Text for one cell of a Markdown table: pipes escaped, newlines made spaces."""
    value = str(text).replace("\\", "\\\\").replace("|", "\\|")
    return _NEWLINES.sub(" ", value)
