"""The seeded orders a worker meets (annotations/services/orders.py)."""

from __future__ import annotations

from annotations.services.orders import _order_key, order_value


def test_item_orders_are_mixed_across_workers():
    """A worker's order of 12 consecutive items is neither the design order nor its
    reverse, and no two of 2,000 workers share one. The old key, one linear form mod a
    prime, ordered items by the fractional parts of item * a / p: about 1 worker in 24 got
    the design order and 1 in 24 its reverse (CI met four workers with three orders)."""
    items = range(3525, 3537)
    orders = [
        tuple(
            sorted(
                items,
                key=lambda i: (order_value(key=_order_key(7, w), item_id=i, criterion_id=289), i),
            )
        )
        for w in range(1, 2001)
    ]
    assert tuple(items) not in orders
    assert tuple(reversed(items)) not in orders
    assert len(set(orders)) == len(orders)
