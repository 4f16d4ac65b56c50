"""The product's source read as text, for tests that keep a rule or a wording in one place."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRODUCT = ("annotations", "ranking", "reports", "common")


def modules_containing(text: str) -> list[str]:
    """The product's modules (``annotations``, ``ranking``, ``reports``, ``common``) whose
    source contains ``text``, as sorted repository paths."""
    return sorted(
        str(path.relative_to(REPO))
        for app in PRODUCT
        for path in (REPO / app).rglob("*.py")
        if text in path.read_text(encoding="utf-8")
    )
