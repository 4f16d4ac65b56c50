"""The datasheet as Markdown, LaTeX and JSON: one function per format, used by the page,
the API and ``manage.py datasheet``. Every text goes through
``annotations.core.export_safety``."""

from __future__ import annotations

import json
import re

from annotations.core.export_safety import latex_escape, markdown_escape
from reports.core import heds
from reports.selectors.datasheet import Entry, FilledDatasheet

FORMATS: dict[str, tuple[str, str]] = {
    "markdown": ("text/markdown; charset=utf-8", "md"),
    "latex": ("application/x-tex; charset=utf-8", "tex"),
    "json": ("application/json", "json"),
}


def _label(e: Entry) -> str:
    return e.question.id + (f" [{e.criterion}]" if e.criterion else "")


# A hyphen-minus that signs a number ("-0.12", "from -5"), not one inside a word or a
# date: typeset as a minus sign, not a hyphen.
_MINUS = re.compile(r"(?<![\w.])-(?=\d)")


def _tex(text: object) -> str:
    """Escaped text (``latex_escape``) with the minus signs of numbers typeset as such."""
    return _MINUS.sub(r"$-$", latex_escape(text))


def _markdown_answer(e: Entry) -> str:
    if not e.open:
        return markdown_escape(e.answer)
    marker = f"_{heds.TO_BE_ANSWERED}_" + (f" ({markdown_escape(e.ask)})" if e.ask else "")
    return f"{markdown_escape(e.platform_answer)} {marker}" if e.platform_answer else marker


def _latex_answer(e: Entry) -> str:
    if not e.open:
        return _tex(e.answer)
    marker = r"\emph{" + _tex(e.to_be_answered) + "}"
    return f"{_tex(e.platform_answer)} {marker}" if e.platform_answer else marker


def datasheet_markdown(sheet: FilledDatasheet) -> str:
    lines = [
        f"# Human evaluation datasheet: {markdown_escape(sheet.name)}",
        "",
        f"HEDS {heds.VERSION} ({heds.SOURCE}). Campaign {markdown_escape(sheet.campaign)}.",
        "",
    ]
    for sid, title, entries in sheet.sections():
        lines += [f"## {sid}. {title}", "", "| Question | Answer | Source |", "|---|---|---|"]
        for e in entries:
            answer = _markdown_answer(e)
            lines.append(
                f"| {markdown_escape(_label(e))} {markdown_escape(e.question.text)} | {answer} | {markdown_escape(e.source)} |"
            )
        lines.append("")
    return "\n".join(lines)


def datasheet_latex(sheet: FilledDatasheet) -> str:
    lines = [
        r"\section*{Human evaluation datasheet: " + _tex(sheet.name) + "}",
        "HEDS " + _tex(heds.VERSION) + " (" + _tex(heds.SOURCE) + ").",
    ]
    for sid, title, entries in sheet.sections():
        lines.append(r"\subsection*{" + _tex(f"{sid}. {title}") + "}")
        lines.append(r"\begin{description}")
        for e in entries:
            # The label braced (a "]" in a criterion's name would end \item's option) and
            # the line break guarded by {} (an answer opening with "[" would be read as
            # \\'s optional length).
            lines.append(
                r"\item[{"
                + _tex(_label(e))
                + "}] "
                + _tex(e.question.text)
                + r" \\{} "
                + _latex_answer(e)
            )
        lines.append(r"\end{description}")
    return "\n".join(lines) + "\n"


def datasheet_json(sheet: FilledDatasheet) -> str:
    return json.dumps(sheet.to_dict(), indent=2, ensure_ascii=False) + "\n"


def datasheet_render(sheet: FilledDatasheet, fmt: str) -> str:
    """The datasheet in ``fmt`` (one of :data:`FORMATS`); ``ValueError`` otherwise."""
    if fmt == "markdown":
        return datasheet_markdown(sheet)
    if fmt == "latex":
        return datasheet_latex(sheet)
    if fmt == "json":
        return datasheet_json(sheet)
    raise ValueError(f"Unknown format '{fmt}': use one of {', '.join(FORMATS)}.")
