"""The too-fast message writes the seconds as the worker's language does (0,7 in German,
French and Spanish; it said 0.7 in every language)."""

from __future__ import annotations

import pytest
from django.utils import translation

from annotations.services.judgements import TooFast


@pytest.mark.parametrize(
    ("language", "written"), [("en", "0.7"), ("de", "0,7"), ("fr", "0,7"), ("es", "0,7")]
)
def test_seconds_in_the_workers_number_format(language, written):
    with translation.override(language):
        message = str(TooFast(seconds=0.7, minimum=10, can_confirm=True))
    assert f" {written} " in message


def test_seconds_are_rounded_not_cut():
    with translation.override("de"):
        assert " 4,3 " in str(TooFast(seconds=4.26, minimum=30, can_confirm=True))
        assert " 13 " in str(TooFast(seconds=12.6, minimum=30, can_confirm=False))
