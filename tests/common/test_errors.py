"""A refusal (``common.errors.DomainError`` and its kinds) is a sentence fit to show a
person: the field at fault goes in ``field=`` (the API lists it under ``fields``; a page
shows the message beside that field), never glued before the sentence as "email: ..." or
"where: ..." (an outside review read such prefixes on the pages)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("annotations", "ranking", "reports", "common", "humaneval")
REFUSALS = {"DomainError", "StaleRequest"}
#: "name: ", "a few words: " or "Languages: " at the start: a field's name, not a sentence.
PREFIX = re.compile(r"^([a-z_]+( [a-z_]+){0,2}|[A-Z][a-z]+): ")
#: what follows a value put first, as in f"{exc.field}: {exc}" or f"{where}: give text."
AFTER_VALUE = re.compile(r"^: ")


def _opening(node: ast.expr) -> str | None:
    """The literal text a message argument starts with (a string or an f-string); an
    f-string that starts with a value reads as ``{}`` and the text after it."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
        if isinstance(first, ast.FormattedValue) and len(node.values) > 1:
            after = node.values[1]
            if isinstance(after, ast.Constant) and isinstance(after.value, str):
                return "{}" + after.value
    return None


def _prefixed() -> list[str]:
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and node.args):
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                opening = _opening(node.args[0]) if name in REFUSALS else None
                if opening is not None and (
                    PREFIX.match(opening)
                    or (opening.startswith("{}") and AFTER_VALUE.match(opening[2:]))
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {opening[:40]!r}")
    return found


def test_no_refusal_starts_with_a_field_name() -> None:
    assert _prefixed() == []


def test_the_check_finds_a_prefixed_message(tmp_path, monkeypatch) -> None:
    """The scan itself sees what it looks for (so that an empty list means something)."""
    assert PREFIX.match("email: enter an email address.")
    assert PREFIX.match("tasks per item: must be at least 1.")
    assert not PREFIX.match("Enter an email address.")
    assert PREFIX.match("Languages: the campaign's outputs are in fr.")
    call = ast.parse('DomainError(f"where: {exc}")').body[0].value  # type: ignore[attr-defined]
    assert _opening(call.args[0]) == "where: "
    call = ast.parse('DomainError(f"{exc.field}: {exc}")').body[0].value  # type: ignore[attr-defined]
    assert _opening(call.args[0]) == "{}: "
