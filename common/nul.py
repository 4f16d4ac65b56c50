"""NUL characters are refused at input.

PostgreSQL stores no NUL (U+0000) in text or jsonb: one that reached a query was a 500,
and on SQLite it was stored only to break exports later. Every way in refuses it with a
message naming where it was: query strings, form bodies and paths
(``common.middleware.RequestBoundsMiddleware``), API JSON bodies (``common.parsers``),
and uploaded files (the importers, naming the file, line and field). Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable

NUL = "\x00"


def nul_path(value: object, prefix: str = "") -> str | None:
    """Where a NUL sits in a decoded JSON value: ``""`` for the value itself, else the
    dotted path of the key or item (``answers.5.1``, ``rows[2]``), or None when none does.
    A key holding a NUL is named as its path with the NUL shown as ``\\0``."""
    if isinstance(value, str):
        return prefix if NUL in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if NUL in str(key):
                return path.replace(NUL, "\\0")
            found = nul_path(item, path)
            if found is not None:
                return found
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = nul_path(item, f"{prefix}[{index}]")
            if found is not None:
                return found
    return None


def nul_in_pairs(pairs: Iterable[tuple[str, str]]) -> str | None:
    """The name of the first (name, value) pair with a NUL in either, or None."""
    for name, value in pairs:
        if NUL in name or NUL in value:
            return name.replace(NUL, "\\0")
    return None


def nul_message(where: str) -> str:
    return f"{where} contains a NUL character (U+0000), which cannot be stored; remove it."
