"""The seeded orders a worker meets: of the items and criteria they are handed
(``worker_order_key``, ``order_value``) and of the outputs on a task's page
(``display_order_for``). Pure functions of the campaign's ``task_seed``, the worker and
the place: the same worker always meets the same orders."""

from __future__ import annotations

import functools
from collections.abc import Iterable

import numpy as np
from django.db.models import BigIntegerField, ExpressionWrapper, F, Value

from annotations.models import Campaign, Task, Worker
from annotations.selectors.sessions import session_seed

# The worker's item order: u = (item * a + criterion * b + c) mod this prime, squared
# twice, ((u**2 + d)**2 + e) mod the prime (every factor < prime, so the products fit in
# 64 bits). One linear form alone orders consecutive items by the fractional parts of
# item * a / prime: about 1 worker in 24 got the design order and 1 in 24 its reverse.
# The product of two linear forms still gave a third of workers' orders to others; the
# squares give as few shared orders as random permutations would.
ORDER_PRIME = 2_147_483_647

OrderKey = tuple[int, int, int, int, int]


def display_order_for(
    *,
    task: Task,
    worker: Worker,
    position: int,
    campaign: Campaign,
    slots: Iterable[int],
) -> list[int]:
    """The task's output ``slots`` in the order this assignment shows them (a seeded
    permutation)."""
    slots = sorted(set(slots))
    rng = np.random.default_rng(session_seed(campaign.task_seed, worker.pk, task.pk, position, 2))
    return [slots[i] for i in rng.permutation(len(slots))]


@functools.lru_cache(maxsize=4096)
def _order_key(task_seed: int, worker_id: int) -> OrderKey:
    a, b, c, d, e = (
        int(x)
        for x in np.random.default_rng(session_seed(task_seed, worker_id, 4)).integers(
            1, ORDER_PRIME, size=5
        )
    )
    return a, b, c, d, e


def worker_order_key(*, campaign: Campaign, worker: Worker) -> OrderKey:
    """The worker's item order as the coefficients (a, b, c, d, e) of
    ``order_value``: seeded by the campaign's ``task_seed`` and the worker id, so the same
    worker always gets the same order.
    """
    return _order_key(campaign.task_seed, worker.pk)


def order_value(*, key: OrderKey, item_id: int, criterion_id: int) -> int:
    """Where (item, criterion) comes in the order ``key``:
    ``((u**2 + d)**2 + e) mod p`` with ``u = (item a + criterion b + c) mod p``."""
    a, b, c, d, e = key
    u = (item_id * a + criterion_id * b + c) % ORDER_PRIME
    v = (u * u + d) % ORDER_PRIME
    return (v * v + e) % ORDER_PRIME


def order_expression(*, key: OrderKey) -> ExpressionWrapper:
    """``order_value`` of a task's item and criterion, computed in SQL (the fallback scan
    orders by it). The ``%`` operator, not ``Mod``: Django's MOD on SQLite is
    ``math.fmod``, exact to 2**53 only."""
    a, b, c, d, e = key
    prime = Value(ORDER_PRIME)
    u = (F("item_id") * a + F("criterion_id") * b + c) % prime
    v = (u * u + d) % prime
    return ExpressionWrapper((v * v + e) % prime, output_field=BigIntegerField())
