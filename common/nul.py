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

import re

NUL = "\x00"
#: What no store takes in text: NUL (PostgreSQL) and lone UTF-16 surrogates (JSON's
#: ``\ud800`` escapes: no driver encodes one; on SQLite one was stored, then broke the
#: exports). The one definition: ``common.limits`` refuses the same in requests.
REFUSED_CHARACTERS = re.compile("[\x00\ud800-\udfff]")


def nul_path(value: object, prefix: str = "") -> str | None:
    """Where a NUL (or a lone surrogate) sits in a decoded JSON value: ``""`` for the value
    itself, else the dotted path of the key or item (``answers.5.1``, ``rows[2]``), or
    None when none does. A key holding one is named as its path with it shown as ``\\0``
    or ``\\udXXX``."""
    if isinstance(value, str):
        return prefix if REFUSED_CHARACTERS.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if REFUSED_CHARACTERS.search(str(key)):
                return REFUSED_CHARACTERS.sub(_shown, path)
            found = nul_path(item, path)
            if found is not None:
                return found
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = nul_path(item, f"{prefix}[{index}]")
            if found is not None:
                return found
    return None


def _shown(found: re.Match[str]) -> str:
    char = found.group()
    return "\\0" if char == NUL else f"\\u{ord(char):04x}"


def nul_message(where: str) -> str:
    return (
        f"{where} contains a NUL character (U+0000) or a lone UTF-16 surrogate (a \\ud800 to "
        "\\udfff escape that pairs with none), which cannot be stored; remove it."
    )
