"""Checks that a response carries the hostile fixture's strings as inert data.

Each ``*_problems`` function returns a list of readable findings (empty: inert), so a
failing test names every problem of a response at once.
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from markdown_it import MarkdownIt

#: URL-bearing attributes; a ``javascript:`` (or ``data:``/``vbscript:``) value in any is live.
_URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "poster"}
_LIVE_SCHEME = re.compile(r"^\s*(javascript|vbscript|data)\s*:", re.IGNORECASE)
#: elements no page of the site has and a payload would bring
_FOREIGN_ELEMENTS = {"iframe", "object", "embed", "base", "frame", "frameset", "foreignobject"}
#: the site's own refresh: a Prolific worker's final page moves on to Prolific's completion
#: page with the (URL-encoded) completion code
_OWN_REFRESH = re.compile(
    r"^\d+;url=https://app\.prolific\.com/submissions/complete\?cc=[A-Za-z0-9%._~+-]*$"
)
#: the site's icons: none (a standalone error page) or the one at the root (public/)
_FAVICONS = ({"rel": "icon", "href": "data:,"}, {"rel": "icon", "href": "/favicon.ico"})
#: where the site's own scripts and styles come from
_OWN_PREFIX = "/static/"


def _url_value(value: str) -> str:
    # Browsers drop tabs and newlines inside URLs and ignore leading control characters.
    return re.sub(r"[\x00-\x20]", "", value)


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, attrs)

    def _element(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if (
            tag == "meta"
            and "http-equiv" in values
            # DRF's browsable API declares its charset so
            and values["http-equiv"].lower() != "content-type"
            and not _OWN_REFRESH.match(values.get("content", ""))
        ):
            self.problems.append(f"<meta http-equiv={values['http-equiv']!r}>")
        if tag in _FOREIGN_ELEMENTS:
            self.problems.append(f"<{tag}> element")
        if tag == "script" and values.get("type") == "application/json":
            return  # a data block, never run (DRF's browsable API keeps its CSRF name so)
        if tag == "script":
            src = values.get("src", "")
            if not (src.startswith("/") and not src.startswith("//")):
                self.problems.append(f"<script> not from this site: src={src!r}")
            self._in_script = True
        if tag == "link":
            if values.get("href", "").startswith(_OWN_PREFIX) or values in _FAVICONS:
                return
            self.problems.append(f"<link href={values.get('href')!r}>")
        if tag == "img" and _url_value(values.get("src", "")) in ("", "x"):
            self.problems.append(f"<img src={values.get('src')!r}> (a payload's image)")
        for name, value in values.items():
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...> event handler")
            if name in _URL_ATTRIBUTES and _LIVE_SCHEME.match(_url_value(value)):
                self.problems.append(f"<{tag} {name}={value[:40]!r}> live URL")
            if name == "style" and "url(" in value.lower():
                self.problems.append(f"<{tag} style={value[:40]!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.problems.append(f"inline script content {data.strip()[:40]!r}")


_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def html_problems(text: str) -> list[str]:
    """Hostile elements and attributes in an HTML page (or fragment), and bidirectional
    overrides (they reorder the text that follows them)."""
    parser = _Elements()
    parser.feed(text)
    parser.close()
    bidi = [f"bidi control U+{ord(m.group(0)):04X} in HTML" for m in _BIDI.finditer(text)]
    return parser.problems + bidi[:3]


def svg_problems(text: str) -> list[str]:
    """An SVG must be well-formed XML with no script, foreign content, handler or live URL."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        return [f"SVG is not well-formed XML: {exc}"]
    problems = []
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1].lower()
        if tag in {"script", *_FOREIGN_ELEMENTS}:
            problems.append(f"<{tag}> in SVG")
        for name, value in element.attrib.items():
            local = name.rsplit("}", 1)[-1].lower()
            if local.startswith("on"):
                problems.append(f"<{tag} {local}=...> in SVG")
            if local in {"href", "src"} and _LIVE_SCHEME.match(_url_value(value)):
                problems.append(f"<{tag} {local}={value[:40]!r}> in SVG")
    return problems


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def csv_problems(text: str) -> list[str]:
    """Cells a spreadsheet would run as formulas."""
    problems = []
    for n, row in enumerate(csv.reader(io.StringIO(text, newline="")), start=1):
        for cell in row:
            if cell.startswith(_FORMULA_START) and not _PLAIN_NUMBER.match(cell):
                problems.append(f"CSV line {n}: live formula cell {cell[:40]!r}")
    return problems


def json_problems(text: str, *, lines: bool = False) -> list[str]:
    """Whether the text is valid JSON (or JSON Lines)."""
    chunks = [line for line in text.splitlines() if line.strip()] if lines else [text]
    problems = []
    for n, chunk in enumerate(chunks, start=1):
        try:
            json.loads(chunk)
        except ValueError as exc:
            problems.append(f"invalid JSON (chunk {n}): {exc}")
    return problems


#: a raw HTML tag, comment, declaration or processing instruction start in Markdown source
_RAW_HTML = re.compile(r"<[A-Za-z/!?]")
#: a link or image in Markdown source, inline or autolink
_MD_LINK = re.compile(r"(?<!\\)\]\((?!\s*https?://)", re.IGNORECASE)


def _markdown_renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    # Let every link through, so a link made from data shows up in the check below
    # (markdown-it would drop a javascript: link itself; other renderers may not).
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    return md


def markdown_problems(text: str) -> list[str]:
    """Raw HTML or a live link in Markdown source, or either in its rendering."""
    problems = []
    for match in _RAW_HTML.finditer(text):
        problems.append(f"raw HTML in Markdown: {text[match.start() : match.start() + 40]!r}")
    for match in _MD_LINK.finditer(text):
        problems.append(
            f"link in Markdown: {text[max(0, match.start() - 20) : match.end() + 30]!r}"
        )
    rendered = _markdown_renderer().render(text)
    problems += [f"rendered Markdown: {p}" for p in html_problems(rendered)]
    return problems


_OWN_MATH = re.compile(r"\$\\(rho|tau|pm|alpha|kappa)(_[a-z])?\$")
_LATEX_SPECIAL = re.compile(r"(?<!\\)[$#^~&_]")


def latex_problems(text: str, *, table_columns: bool = True) -> list[str]:
    """LaTeX whose data is not escaped: a TeX command from the fixture, math mode, or
    unbalanced braces; comment lines end at their line."""
    problems = []
    for needle in (r"\input", r"\include", r"\write", r"\catcode", r"\def", "\x00"):
        if needle in text:
            problems.append(f"LaTeX carries {needle!r}")
    depth = 0
    for n, line in enumerate(text.splitlines(), start=1):
        body = line.lstrip()
        if body.startswith("%"):
            continue
        # Escaped specials are data, and so is the exports' own math (one Greek letter,
        # maybe with a subscript, e.g. $\\tau_b$); what is left must be markup.
        plain = re.sub(r"\\[\\{}&%$#_]|\\text[a-z]+\{\}", "", line)
        plain = _OWN_MATH.sub("", plain)
        code = plain.split("%", 1)[0]
        for ch in code:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth < 0:
                    problems.append(f"LaTeX line {n}: unbalanced '}}'")
                    depth = 0
        for match in _LATEX_SPECIAL.finditer(code):
            if match.group(0) == "&" and table_columns:
                continue
            problems.append(f"LaTeX line {n}: unescaped {match.group(0)!r}: {line[:60]!r}")
    if depth:
        problems.append(f"LaTeX: {depth} unclosed '{{'")
    return problems
