"""``money``: an amount with its currency written once and thousands separated."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django import template

register = template.Library()

#: Currencies written with their sign before the amount; any other is written by its
#: code ("CHF 3,990.00").
SYMBOLS = {"GBP": "£", "USD": "$", "EUR": "€"}


@register.filter
def money(amount: Any, currency: str = "") -> str:
    """``3990`` with ``"GBP"`` -> ``"£3,990.00"``; ``"CHF 3,990.00"`` for a currency
    without a sign here; ``"-£2.50"`` below zero; the amount unchanged when it is no
    number.

    >>> money(3990, "GBP"), money("1234.5", "CHF"), money(-2.5, "GBP")
    ('£3,990.00', 'CHF 1,234.50', '-£2.50')
    """
    try:
        value = Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError):
        return str(amount)
    sign = "-" if value < 0 else ""
    digits = f"{abs(value):,.2f}"
    code = (currency or "").strip()
    if code.upper() in SYMBOLS:
        return f"{sign}{SYMBOLS[code.upper()]}{digits}"
    return f"{sign}{code} {digits}" if code else f"{sign}{digits}"
