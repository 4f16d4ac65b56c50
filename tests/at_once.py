"""Run one call from several threads at the same moment (a form sent from several tabs,
a retried request racing the first): what each returned or raised, in finishing order.
Each thread closes its database connections, as a request does."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

#: Row locks (SELECT ... FOR UPDATE) are PostgreSQL's: a test of them skips elsewhere.
NEEDS_ROW_LOCKS = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="Row locks (SELECT ... FOR UPDATE) need PostgreSQL; SQLite serialises writes.",
)
#: Tests of requests sent at once.
ROW_LOCKS = [pytest.mark.django_db(transaction=True), NEEDS_ROW_LOCKS]


def at_once(call: Callable[[], Any], *, times: int) -> list[Any]:
    """``call()`` from ``times`` threads released together: each one's return value, or
    the exception it raised."""
    barrier = threading.Barrier(times)
    outcomes: list[Any] = []

    def one() -> None:
        try:
            barrier.wait()
            outcomes.append(call())
        except BaseException as error:
            outcomes.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
