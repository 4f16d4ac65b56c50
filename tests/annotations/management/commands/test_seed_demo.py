"""The ``seed_demo`` command says what it made, then that it was there."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from annotations.models import Campaign

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_seed_demo_says_what_it_made_then_that_it_was_there():
    first = _run("seed_demo")
    assert first.startswith("Created demo campaign 'demo'")
    assert "6 systems, 40 items, 240 outputs, 158 tasks, 192 judgements (simulated)" in first
    second = _run("seed_demo")
    assert second.startswith("Already there: demo campaign 'demo'")
    assert Campaign.objects.filter(slug="demo").count() == 1
