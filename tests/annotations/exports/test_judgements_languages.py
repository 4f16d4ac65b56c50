"""Exports carry each judgement's language."""

from __future__ import annotations

import json

import pytest

from annotations.models import Task

pytestmark = pytest.mark.django_db


def test_exports_carry_the_language() -> None:
    from annotations.exports.judgements import csv_lines, jsonl_lines
    from tests.ranking.planted import planted_campaign

    _, criterion = planted_campaign(strengths=[1.0, 0.0], n_judgements=2, k=2)
    Task.objects.filter(criterion=criterion).update(language="de")
    import csv as csv_module

    header, *rows = list(csv_module.reader(csv_lines(criterion=criterion)))
    at = header.index("_language")
    assert rows and all(r[at] == "de" for r in rows)
    assert all(json.loads(line)["language"] == "de" for line in jsonl_lines(criterion=criterion))
