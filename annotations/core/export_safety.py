"""Make exported text safe to open: spreadsheets, LaTeX and Markdown.

Every export that writes a name, an id or a text a person supplied (designers name
campaigns and systems; crowd workers supply their own ids) goes through these, so a
cell can never become a spreadsheet formula and a name can never become TeX or
Markdown markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from common.unicode import BIDI_CLASS

# OWASP "CSV Injection": a cell that starts with = + - @, a tab or a carriage return is
# read as a formula. A text that starts so after apostrophes is quoted too, so that
# reading a cell back (:func:`csv_cell_read`) gives exactly the text written.
_QUOTED = re.compile(r"^'*[=+\-@\t\r]")
_QUOTED_READ = re.compile(r"^'+[=+\-@\t\r]")
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
# Characters no export should carry: C0 controls other than line breaks and tab (TeX
# stops on a NUL, a terminal obeys escapes), DEL, and the Unicode bidirectional
# embeddings, overrides and isolates (they reorder the text that follows them: "Trojan
# Source", CVE-2021-42574).
_INVISIBLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f" + BIDI_CLASS + "]")
# Markdown's specials (CommonMark lets any ASCII punctuation be backslash-escaped), with
# HTML's three (&, <, >) written as entities instead, which every Markdown renderer
# passes through as text.
_MARKDOWN_SPECIALS = re.compile(r"[\\`*_\[\]()#!|~$^{}]")
_HTML_SPECIALS = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
# What starts a block when it starts a line: a list item, a setext underline, a numbered item.
_MARKDOWN_LINE_START = re.compile(r"^([-+=]|\d{1,9}[.)](?=\s|$))")


def csv_cell(value: object) -> object:
    """One spreadsheet cell, neutralised (OWASP): a text that a spreadsheet would read
    as a formula gets a leading apostrophe. Numbers (and numeric text) pass unchanged.

    A text that already starts with apostrophes before such a character gets one more,
    so :func:`csv_cell_read` undoes exactly this and nothing else. Every other character
    is kept, Unicode's bidirectional controls included: a CSV export is data that
    re-imports as it was (an isolate around a Latin name in Arabic text is part of the
    text), as the JSONL export is; the exports read as text (LaTeX, Markdown, plain
    text) drop them."""
    if not isinstance(value, str) or not value:
        return value
    if _QUOTED.match(value) and not _PLAIN_NUMBER.match(value):
        return "'" + value
    return value


def csv_cell_read(text: str) -> str:
    """A cell of a file this module wrote, as it was before :func:`csv_cell`: the one
    apostrophe it put before a formula's first character is taken off."""
    return text[1:] if _QUOTED_READ.match(text) else text


def csv_row(values: Iterable[object]) -> list[object]:
    """A row of :func:`csv_cell`."""
    return [csv_cell(value) for value in values]


def latex_escape(text: object) -> str:
    """Text as inert LaTeX: every TeX special escaped, newlines made spaces, control
    and bidirectional-override characters dropped."""
    value = _INVISIBLE.sub("", str(text))
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIALS.get(m.group(0), " "), value)


def plain_text(text: object) -> str:
    """Text for a plain-text table or a terminal: one line, control characters (a
    terminal's escape sequences) and bidirectional overrides dropped."""
    return _NEWLINES.sub(" ", _INVISIBLE.sub("", str(text)))


def markdown_escape(text: object) -> str:
    """Text as inert Markdown, for any place in a line (a table cell, a heading, a list
    item, running text): one line; HTML's specials as entities, so no tag, comment or
    entity of the text takes effect; Markdown's specials backslash-escaped, so no
    emphasis, code, link, image, table cell or heading does; a list or heading marker
    at its start escaped; control and bidirectional-override characters dropped.

    The one helper every Markdown export uses (ranking tables, the datasheet, ...).
    """
    value = _NEWLINES.sub(" ", _INVISIBLE.sub("", str(text)))
    value = _MARKDOWN_SPECIALS.sub(lambda m: "\\" + m.group(0), value)
    value = "".join(_HTML_SPECIALS.get(ch, ch) for ch in value)
    return _MARKDOWN_LINE_START.sub(lambda m: m.group(0)[:-1] + "\\" + m.group(0)[-1], value)
