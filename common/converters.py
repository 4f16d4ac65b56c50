"""Ids as the site reads them: ``<id:pk>`` in a path, :func:`whole_number` in a query
string, a form field, a cookie or a file's setting.

Django's ``<int:>`` takes any number of digits, and a number past what a database integer
holds (``/task/99999999999999999999/``) reached the query: an OverflowError on SQLite, a
DataError on PostgreSQL, a 500 either way. An id of 1 to 18 digits fits a 64-bit integer;
a longer one matches no path: a 404 like any other unknown address. Registered once, by
the root URLconf (``humaneval/urls.py``), before the apps' URLconfs are read.
"""

from __future__ import annotations

#: The most digits an id has: every number of 18 digits fits a 64-bit integer.
ID_DIGITS = 18


def whole_number(text: str | None) -> int | None:
    """``text`` as a whole number when it is 1 to :data:`ID_DIGITS` ASCII digits (what a
    database integer holds), else None. ``str.isdigit`` alone also takes "²" and other
    digits that ``int`` refuses, and any length: both were 500s where a query string or a
    form held them."""
    if not text or len(text) > ID_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


class IdConverter:
    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
