"""The datasheet as Markdown, LaTeX and JSON: one function per format, used by the page,
the API and ``manage.py datasheet``. Every text goes through
``annotations.core.export_safety``."""

from __future__ import annotations

import json

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
            answer = f"_{heds.TO_BE_ANSWERED}_" if e.open else markdown_escape(e.answer)
            lines.append(
                f"| {markdown_escape(_label(e))} {markdown_escape(e.question.text)} | {answer} | {markdown_escape(e.source)} |"
            )
        lines.append("")
    return "\n".join(lines)


def datasheet_latex(sheet: FilledDatasheet) -> str:
    lines = [
        r"\section*{Human evaluation datasheet: " + latex_escape(sheet.name) + "}",
        "HEDS " + latex_escape(heds.VERSION) + " (" + latex_escape(heds.SOURCE) + ").",
    ]
    for sid, title, entries in sheet.sections():
        lines.append(r"\subsection*{" + latex_escape(f"{sid}. {title}") + "}")
        lines.append(r"\begin{description}")
        for e in entries:
            answer = (
                r"\emph{" + latex_escape(heds.TO_BE_ANSWERED) + "}"
                if e.open
                else latex_escape(e.answer)
            )
            lines.append(
                # Braces keep a ']' of the label (its "[criterion]") inside the optional argument.
                r"\item[{"
                + latex_escape(_label(e))
                + "}] "
                + latex_escape(e.question.text)
                + r" \\ "
                + answer
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
