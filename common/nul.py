"""NUL characters in uploaded files are refused, naming where.

PostgreSQL stores no NUL (U+0000) in text or jsonb: one that reached a query was a 500,
and on SQLite it was stored only to break exports later. Requests are checked by
``common.limits`` (query strings, form bodies and paths in
``common.middleware.RequestBoundsMiddleware``, API JSON bodies in ``common.parsers``);
this module is the one walker that finds a NUL inside a decoded JSON value, for the file
parsers (the importers, naming the file, line and field: pure cores, which may not import
``common.limits``, it reads Django's settings) and for the JSON columns of the API's
serializers (``common.serializers``). Pure: no Django.
"""

from __future__ import annotations

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


def nul_message(where: str) -> str:
    return f"{where} contains a NUL character (U+0000), which cannot be stored; remove it."
