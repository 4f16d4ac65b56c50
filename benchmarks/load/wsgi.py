"""The production WSGI application, counting each request's queries and database time.

Used only by the load benchmark (``gunicorn benchmarks.load.wsgi:application``): every
response carries ``X-Queries`` (statements run) and ``X-DB-ms`` (their summed wall time)
so that the client can report them per request kind. The application itself is
``humaneval.wsgi.application`` unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection

from humaneval.wsgi import application as django_application


class _Counter:
    def __init__(self) -> None:
        self.queries = 0
        self.seconds = 0.0

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.queries += 1
            self.seconds += time.perf_counter() - start


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    counter = _Counter()

    def counting_start_response(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
        headers = [
            *headers,
            ("X-Queries", str(counter.queries)),
            ("X-DB-ms", f"{counter.seconds * 1000:.2f}"),
        ]
        return start_response(status, headers, *args)

    with connection.execute_wrapper(counter):
        return django_application(environ, counting_start_response)
