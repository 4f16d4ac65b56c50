"""URL converters of the site: ``<id:pk>``, a row's id in a path.

Django's ``<int:>`` takes any number of digits, and a number past what a database integer
holds (``/task/99999999999999999999/``) reached the query: an OverflowError on SQLite, a
DataError on PostgreSQL, a 500 either way. An id of 1 to 18 digits fits a 64-bit integer;
a longer one matches no path: a 404 like any other unknown address. Registered once, by
the root URLconf (``humaneval/urls.py``), before the apps' URLconfs are read.
"""

from __future__ import annotations


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
