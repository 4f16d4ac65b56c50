"""Money is written with its currency (annotations/templatetags/money.py)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_money_is_written_with_its_currency_once_and_thousands_separated():
    from annotations.templatetags.money import money

    assert money(3990, "GBP") == "£3,990.00"
    assert money("1234567.891", "CHF") == "CHF 1,234,567.89"
    assert money(-2.5, "USD") == "-$2.50"
