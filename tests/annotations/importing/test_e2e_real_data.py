"""import_e2e on the released E2E data (skips when ../shared/e2e is absent)."""

from __future__ import annotations

import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotations.models import (
    Criterion,
    Item,
    Judgement,
    JudgementScore,
    System,
    TaskOutput,
    Worker,
)

pytestmark = [pytest.mark.django_db, pytest.mark.e2e_data]


def test_import_e2e_real_data(e2e_dir: Path, counts) -> None:
    out = StringIO()
    start = time.perf_counter()
    call_command("import_e2e", str(e2e_dir), campaign="e2e", stdout=out)
    elapsed = time.perf_counter() - start
    text = out.getvalue()
    for line in (
        "systems:                  21",
        "items:                    630",
        "criteria:                 2",
        "judgements:               7,218",
    ):
        assert line in text
    assert System.objects.count() == 21 and Item.objects.count() == 630
    assert Criterion.objects.count() == 2
    assert Judgement.objects.count() == 7218
    assert JudgementScore.objects.count() == 5 * 7218
    assert Judgement.objects.filter(criterion__name="quality").count() == 2979
    assert Judgement.objects.filter(criterion__name="naturalness").count() == 4239
    # every shown text is the system's output for that MR: ratings and outputs link up
    assert not TaskOutput.objects.exclude(text="").exists()
    assert "shown texts differing from the outputs: 0" in text
    assert not any("USA" in str(m) for m in Worker.objects.values_list("metadata", flat=True))
    assert System.objects.get(label="forge3").metadata["participant"] == "forge"
    assert elapsed < 60  # ~6 s on SQLite on a laptop; generous for CI

    before = counts()
    with pytest.raises(CommandError, match="already holds"):
        call_command("import_e2e", str(e2e_dir), campaign="e2e", stdout=StringIO())
    assert counts() == before
